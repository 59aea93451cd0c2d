#include "supervisor/mcp/mcp_client.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <set>
#include <utility>

#include "base/json_depth.h"
#include "base/shown_text.h"

namespace bravebot {
namespace {

using ordered_json = nlohmann::ordered_json;

// "30 s", "1.5 s", "200 ms": how long a deadline gave, for a message.
std::string DescribeWait(std::chrono::steady_clock::duration wait) {
  auto ms = std::chrono::round<std::chrono::milliseconds>(wait).count();
  if (ms < 0) ms = 0;
  if (ms < 1000) return std::to_string(ms) + " ms";
  if (ms % 1000 == 0) return std::to_string(ms / 1000) + " s";
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f s", static_cast<double>(ms) / 1000.0);
  return text;
}

std::string AcceptedVersionsText() {
  std::string text;
  for (std::size_t i = 0; i < kMcpAcceptedVersions.size(); ++i) {
    if (i > 0) text += i + 1 == kMcpAcceptedVersions.size() ? " and " : ", ";
    text += kMcpAcceptedVersions[i];
  }
  return text;
}

bool IsBlank(std::string_view line) {
  return std::all_of(line.begin(), line.end(),
                     [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
}

ErrorCode CodeOf(McpFailureKind kind) {
  switch (kind) {
    case McpFailureKind::kClosed:
    case McpFailureKind::kTimedOut:
    case McpFailureKind::kIo:
      return ErrorCode::kSystem;
    case McpFailureKind::kUnsupportedVersion:
      return ErrorCode::kRefused;
    default:
      return ErrorCode::kCorrupt;
  }
}

bool IsIdOf(const ordered_json& id, std::int64_t ours) {
  if (id.is_number_unsigned()) return ours >= 0 && id.get<std::uint64_t>() == std::uint64_t(ours);
  return id.is_number_integer() && id.get<std::int64_t>() == ours;
}

}  // namespace

std::string_view JsonRpcErrorName(std::int64_t code) {
  switch (code) {
    case -32700:
      return "parse error";
    case -32600:
      return "invalid request";
    case -32601:
      return "method not found";
    case -32602:
      return "invalid params";
    case -32603:
      return "internal error";
    case -32002:
      return "resource not found";
    case -32042:
      return "URL elicitation required";
    default:
      return "";
  }
}

Error McpClient::Fail(McpFailureKind kind, const std::string& method, std::string message,
                      int errno_value) {
  last_failure_ = McpFailure{};
  last_failure_.kind = kind;
  last_failure_.method = method;
  return Error(CodeOf(kind), std::move(message), errno_value);
}

Deadline McpClient::StartWaiting(Wait wait) {
  wait_ = wait;
  return std::chrono::steady_clock::now() + wait;
}

Status McpClient::Send(const ordered_json& message, const std::string& method,
                       const std::string& what, Deadline deadline) {
  // dump() escapes any newline inside a string, so a message is one line; a
  // string that is not UTF-8 is replaced rather than thrown about.
  std::string text = message.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
  Status sent = WriteLine(to_server_fd_, text, deadline);
  if (sent) return {};
  int errno_value = sent.error().errno_value();
  if (errno_value == EPIPE) {
    return Fail(McpFailureKind::kClosed, method,
                "the server closed its standard input before answering " + what, EPIPE);
  }
  if (errno_value == ETIMEDOUT) {
    return Fail(McpFailureKind::kTimedOut, method,
                "the server read nothing of " + what + " within " + DescribeWait(wait_), ETIMEDOUT);
  }
  return Fail(McpFailureKind::kIo, method,
              "sending " + what + " to the server failed: " + sent.error().message(), errno_value);
}

Status McpClient::NotAMessage(std::string_view line, bool is_json, const std::string& method) {
  if (initialize_answered_) {
    ++skipped_lines_;
    return {};
  }
  return Fail(McpFailureKind::kNotJson, method,
              std::string("the server wrote a line that is ") +
                  (is_json ? "not a JSON-RPC message" : "not JSON") +
                  " before answering initialize: " + QuoteLine(line) +
                  " (a stdio MCP server may write only MCP messages to its standard output; "
                  "its logging belongs on standard error)");
}

Status McpClient::Take(ordered_json message, std::int64_t awaited_id, const std::string& method,
                       const std::string& what, Deadline deadline,
                       std::optional<ordered_json>& answer) {
  auto method_member = message.find("method");
  if (method_member != message.end() && method_member->is_string()) {
    auto id = message.find("id");
    if (id == message.end()) return {};  // a notification: nothing we act on
    // A request of the server's own. Its id goes back as it came, whatever it
    // is: it lives in the server's space of ids, not ours.
    ordered_json reply = {{"jsonrpc", "2.0"}, {"id", *id}};
    if (method_member->get<std::string>() == "ping") {
      reply["result"] = ordered_json::object();
    } else {
      reply["error"] = {{"code", -32601}, {"message", "Method not found"}};
    }
    return Send(reply, method, what, deadline);
  }

  auto id = message.find("id");
  auto result = message.find("result");
  auto error = message.find("error");
  if (method_member != message.end() || id == message.end() ||
      (result == message.end() && error == message.end())) {
    return NotAMessage(message.dump(-1, ' ', false, ordered_json::error_handler_t::replace), true,
                       method);
  }
  if (!IsIdOf(*id, awaited_id)) return {};  // a late answer to a request given up on

  if (error != message.end()) {
    auto code = error->is_object() ? error->find("code") : error->end();
    if (!error->is_object() || code == error->end() || !code->is_number_integer()) {
      return Fail(McpFailureKind::kMalformed, method,
                  "the server answered " + what + " with an error that has no code");
    }
    std::int64_t code_value = code->get<std::int64_t>();
    std::string text =
        "the server answered " + what + " with JSON-RPC error " + std::to_string(code_value);
    if (std::string_view name = JsonRpcErrorName(code_value); !name.empty()) {
      text += " (" + std::string(name) + ")";
    }
    Error failure = Fail(McpFailureKind::kErrorResponse, method, std::move(text));
    last_failure_.code = code_value;
    if (auto said = error->find("message"); said != error->end() && said->is_string()) {
      last_failure_.server_message = said->get<std::string>();
    }
    if (auto data = error->find("data"); data != error->end()) last_failure_.server_data = *data;
    return failure;
  }
  answer = std::move(*result);
  return {};
}

Result<ordered_json> McpClient::Request(const std::string& method, const std::string& what,
                                        const ordered_json& params, Deadline deadline) {
  std::int64_t id = next_id_++;
  ordered_json request = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) request["params"] = params;
  if (Status sent = Send(request, method, what, deadline); !sent) return sent.error();

  while (true) {
    auto read = reader_.ReadLine(deadline);
    if (!read) {
      if (read.error().code() == ErrorCode::kCorrupt) {
        return Fail(McpFailureKind::kMalformed, method,
                    "the server wrote a line longer than " + std::to_string(kMaxLineBytes >> 20) +
                        " MiB while bravebot-mcp waited for its answer to " + what);
      }
      return Fail(McpFailureKind::kIo, method,
                  "reading the server's answer to " + what + " failed: " + read.error().message(),
                  read.error().errno_value());
    }
    if (read->status == LineStatus::kEndOfStream) {
      return Fail(McpFailureKind::kClosed, method,
                  "the server closed its standard output before answering " + what);
    }
    if (read->status == LineStatus::kTimedOut) {
      return Fail(McpFailureKind::kTimedOut, method,
                  "no answer to " + what + " within " + DescribeWait(wait_));
    }
    const std::string& line = read->line;
    if (IsBlank(line)) continue;

    if (NestsDeeperThan(line, kMaxJsonDepth)) {
      return Fail(McpFailureKind::kMalformed, method,
                  "the server wrote JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                      " levels while bravebot-mcp waited for its answer to " + what +
                      "; bravebot-mcp reads no deeper");
    }
    ordered_json parsed = ordered_json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded()) {
      if (Status skipped = NotAMessage(line, false, method); !skipped) return skipped.error();
      continue;
    }
    // A batch (2025-03-26 allowed them) is taken one message at a time.
    std::vector<ordered_json> messages;
    if (parsed.is_array() && !parsed.empty()) {
      for (auto& element : parsed) messages.push_back(std::move(element));
    } else {
      messages.push_back(std::move(parsed));
    }
    std::optional<ordered_json> answer;
    for (auto& message : messages) {
      Status taken = message.is_object()
                         ? Take(std::move(message), id, method, what, deadline, answer)
                         : NotAMessage(line, true, method);
      if (!taken) return taken.error();
    }
    if (answer) {
      answer_bytes_ = line.size();
      return std::move(*answer);
    }
  }
}

Result<InitializeResult> McpClient::Initialize(Wait wait) {
  const Deadline deadline = StartWaiting(wait);
  const std::string method = "initialize";
  ordered_json params = {
      {"protocolVersion", kMcpProtocolVersion},
      {"capabilities", ordered_json::object()},
      {"clientInfo", {{"name", kMcpClientName}, {"version", kMcpClientVersion}}},
  };
  auto result = Request(method, method, params, deadline);
  if (!result) return result.error();
  initialize_answered_ = true;

  auto version = result->is_object() ? result->find("protocolVersion") : result->end();
  if (!result->is_object() || version == result->end() || !version->is_string()) {
    return Fail(McpFailureKind::kMalformed, method,
                "the server's answer to initialize names no protocol version");
  }
  InitializeResult hello;
  hello.protocol_version = version->get<std::string>();
  if (std::find(kMcpAcceptedVersions.begin(), kMcpAcceptedVersions.end(), hello.protocol_version) ==
      kMcpAcceptedVersions.end()) {
    return Fail(McpFailureKind::kUnsupportedVersion, method,
                "the server answered initialize with protocol version " +
                    QuoteLine(hello.protocol_version, 40) +
                    ", which bravebot-mcp does not speak (it speaks " + AcceptedVersionsText() +
                    ")");
  }
  if (auto info = result->find("serverInfo"); info != result->end() && info->is_object()) {
    if (auto name = info->find("name"); name != info->end() && name->is_string()) {
      hello.server_name = name->get<std::string>();
    }
    if (auto v = info->find("version"); v != info->end() && v->is_string()) {
      hello.server_version = v->get<std::string>();
    }
  }
  if (auto text = result->find("instructions"); text != result->end() && text->is_string()) {
    hello.instructions = text->get<std::string>();
  }
  if (auto caps = result->find("capabilities"); caps != result->end() && caps->is_object()) {
    hello.capabilities = nlohmann::json(*caps);
  }

  ordered_json initialized = {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}};
  if (Status sent = Send(initialized, method, method, deadline); !sent) return sent.error();
  last_failure_ = McpFailure{};
  return hello;
}

Result<std::vector<ordered_json>> McpClient::ListTools(Wait wait) {
  const Deadline deadline = StartWaiting(wait);
  const std::string method = "tools/list";
  std::vector<ordered_json> tools;
  std::set<std::string> cursors_seen;
  std::optional<std::string> cursor;
  std::size_t list_bytes = 0;
  for (std::size_t page = 0;; ++page) {
    if (page == kMaxToolListPages) {
      return Fail(McpFailureKind::kMalformed, method,
                  "the server's tools/list ran past " + std::to_string(kMaxToolListPages) +
                      " pages; bravebot-mcp reads no more");
    }
    // Without a cursor, no params at all, as the SDK clients send it.
    ordered_json params;
    if (cursor) params = {{"cursor", *cursor}};
    auto result = Request(method, method, params, deadline);
    if (!result) return result.error();
    list_bytes += answer_bytes_;
    if (list_bytes > kMaxToolListBytes) {
      return Fail(McpFailureKind::kMalformed, method,
                  "the server's tools/list ran past " + std::to_string(kMaxToolListBytes >> 20) +
                      " MiB across its pages; bravebot-mcp reads no more");
    }

    auto listed = result->is_object() ? result->find("tools") : result->end();
    if (!result->is_object() || listed == result->end() || !listed->is_array()) {
      return Fail(McpFailureKind::kMalformed, method,
                  "the server's answer to tools/list holds no list of tools");
    }
    for (auto& tool : *listed) {
      auto name = tool.is_object() ? tool.find("name") : tool.end();
      if (!tool.is_object() || name == tool.end() || !name->is_string()) {
        return Fail(McpFailureKind::kMalformed, method,
                    "the server's answer to tools/list holds a tool without a name");
      }
      tools.push_back(std::move(tool));
    }

    auto next = result->find("nextCursor");
    // An empty cursor is taken as the end, as null is: it is what a server
    // that means "no more" is likeliest to send.
    if (next == result->end() || next->is_null() ||
        (next->is_string() && next->get_ref<const std::string&>().empty())) {
      break;
    }
    if (!next->is_string()) {
      return Fail(McpFailureKind::kMalformed, method,
                  "the server's answer to tools/list has a nextCursor that is not a string");
    }
    if (!cursors_seen.insert(next->get<std::string>()).second) {
      return Fail(McpFailureKind::kMalformed, method,
                  "the server's tools/list gave a cursor it had given before, so its pages "
                  "would never end");
    }
    cursor = next->get<std::string>();
  }
  last_failure_ = McpFailure{};
  return tools;
}

Result<nlohmann::json> McpClient::CallTool(const std::string& name, const nlohmann::json& arguments,
                                           Wait wait) {
  const Deadline deadline = StartWaiting(wait);
  const std::string method = "tools/call";
  const std::string what = "tools/call for " + EscapeControlCharacters(name);
  ordered_json params = {{"name", name}};
  params["arguments"] = arguments.is_null() ? ordered_json::object() : ordered_json(arguments);
  auto result = Request(method, what, params, deadline);
  if (!result) return result.error();
  if (!result->is_object()) {
    return Fail(McpFailureKind::kMalformed, method,
                "the server's answer to " + what + " is not an object");
  }
  last_failure_ = McpFailure{};
  return nlohmann::json(*result);
}

}  // namespace bravebot
