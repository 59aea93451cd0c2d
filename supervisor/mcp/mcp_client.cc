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

bool IsIdOf(const ordered_json& id, std::int64_t ours) {
  if (id.is_number_unsigned()) return ours >= 0 && id.get<std::uint64_t>() == std::uint64_t(ours);
  return id.is_number_integer() && id.get<std::int64_t>() == ours;
}

}  // namespace

Error McpClient::Fail(McpFailureKind kind, const std::string& method, std::string message,
                      int errno_value) {
  return Fail(McpFault{kind, std::move(message), std::nullopt}, method, errno_value);
}

Error McpClient::Fail(const McpFault& fault, const std::string& method, int errno_value) {
  last_failure_ = McpFailure{};
  last_failure_.kind = fault.kind;
  last_failure_.method = method;
  last_failure_.code = fault.code;
  return ToError(fault, errno_value);
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
  return Fail(NotAMessageFault(line, is_json), method);
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
    Error failure = Fail(ErrorAnswerFault(*error, what), method);
    if (error->is_object()) {
      if (auto said = error->find("message"); said != error->end() && said->is_string()) {
        last_failure_.server_message = said->get<std::string>();
      }
      if (auto data = error->find("data"); data != error->end()) last_failure_.server_data = *data;
    }
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
      return Fail(NoAnswerFault(what, wait_), method);
    }
    const std::string& line = read->line;
    if (IsBlankLine(line)) continue;

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
  auto result = Request(method, method, InitializeParams(), deadline);
  if (!result) return result.error();
  initialize_answered_ = true;
  McpRead<InitializeResult> hello = ReadInitializeAnswer(*result);
  if (auto* fault = std::get_if<McpFault>(&hello)) return Fail(*fault, method);

  ordered_json initialized = {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}};
  if (Status sent = Send(initialized, method, method, deadline); !sent) return sent.error();
  last_failure_ = McpFailure{};
  return std::get<InitializeResult>(std::move(hello));
}

Result<std::vector<ordered_json>> McpClient::ListTools(Wait wait) {
  const Deadline deadline = StartWaiting(wait);
  const std::string method = "tools/list";
  ToolListPages pages;
  while (true) {
    auto result = Request(method, method, pages.NextParams(), deadline);
    if (!result) return result.error();
    auto step = pages.Take(std::move(*result), answer_bytes_);
    if (auto* fault = std::get_if<McpFault>(&step)) return Fail(*fault, method);
    if (std::holds_alternative<ToolListPages::Done>(step)) break;
  }
  last_failure_ = McpFailure{};
  return std::move(pages.tools());
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
