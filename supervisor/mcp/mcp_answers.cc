#include "supervisor/mcp/mcp_answers.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "base/shown_text.h"

namespace bravebot {
namespace {

using nlohmann::ordered_json;

std::string AcceptedVersionsText() {
  std::string text;
  for (std::size_t i = 0; i < kMcpAcceptedVersions.size(); ++i) {
    if (i > 0) text += i + 1 == kMcpAcceptedVersions.size() ? " and " : ", ";
    text += kMcpAcceptedVersions[i];
  }
  return text;
}

McpFault Malformed(std::string message) {
  return McpFault{McpFailureKind::kMalformed, std::move(message), std::nullopt};
}

}  // namespace

ordered_json InitializeParams(const ordered_json& capabilities) {
  return {
      {"protocolVersion", kMcpProtocolVersion},
      {"capabilities", capabilities},
      {"clientInfo", {{"name", kMcpClientName}, {"version", kMcpClientVersion}}},
  };
}

McpRead<InitializeResult> ReadInitializeAnswer(const ordered_json& result) {
  auto version = result.is_object() ? result.find("protocolVersion") : result.end();
  if (!result.is_object() || version == result.end() || !version->is_string()) {
    return Malformed("the server's answer to initialize names no protocol version");
  }
  InitializeResult hello;
  hello.protocol_version = version->get<std::string>();
  if (std::find(kMcpAcceptedVersions.begin(), kMcpAcceptedVersions.end(), hello.protocol_version) ==
      kMcpAcceptedVersions.end()) {
    return McpFault{McpFailureKind::kUnsupportedVersion,
                    "the server answered initialize with protocol version " +
                        QuoteLine(hello.protocol_version, 40) +
                        ", which bravebot-mcp does not speak (it speaks " + AcceptedVersionsText() +
                        ")",
                    std::nullopt};
  }
  if (auto info = result.find("serverInfo"); info != result.end() && info->is_object()) {
    if (auto name = info->find("name"); name != info->end() && name->is_string()) {
      hello.server_name = name->get<std::string>();
    }
    if (auto v = info->find("version"); v != info->end() && v->is_string()) {
      hello.server_version = v->get<std::string>();
    }
  }
  if (auto text = result.find("instructions"); text != result.end() && text->is_string()) {
    hello.instructions = text->get<std::string>();
  }
  if (auto caps = result.find("capabilities"); caps != result.end() && caps->is_object()) {
    hello.capabilities = nlohmann::json(*caps);
  }
  return hello;
}

ordered_json ToolListPages::NextParams() const {
  if (!cursor_) return nullptr;
  return {{"cursor", *cursor_}};
}

std::variant<ToolListPages::NextPage, ToolListPages::Done, McpFault> ToolListPages::Take(
    ordered_json result, std::size_t line_bytes) {
  ++pages_;
  bytes_ += line_bytes;
  if (bytes_ > kMaxToolListBytes) {
    return Malformed("the server's tools/list ran past " + std::to_string(kMaxToolListBytes >> 20) +
                     " MiB across its pages; bravebot-mcp reads no more");
  }
  auto listed = result.is_object() ? result.find("tools") : result.end();
  if (!result.is_object() || listed == result.end() || !listed->is_array()) {
    return Malformed("the server's answer to tools/list holds no list of tools");
  }
  for (auto& tool : *listed) {
    auto name = tool.is_object() ? tool.find("name") : tool.end();
    if (!tool.is_object() || name == tool.end() || !name->is_string()) {
      return Malformed("the server's answer to tools/list holds a tool without a name");
    }
    tools_.push_back(std::move(tool));
  }
  auto next = result.find("nextCursor");
  // An empty cursor is taken as the end, as null is: it is what a server
  // that means "no more" is likeliest to send.
  if (next == result.end() || next->is_null() ||
      (next->is_string() && next->get_ref<const std::string&>().empty())) {
    return Done{};
  }
  if (!next->is_string()) {
    return Malformed("the server's answer to tools/list has a nextCursor that is not a string");
  }
  if (!cursors_seen_.insert(next->get<std::string>()).second) {
    return Malformed(
        "the server's tools/list gave a cursor it had given before, so its pages would never "
        "end");
  }
  // The last page asked for may still point on: nothing more is asked.
  if (pages_ == kMaxToolListPages) {
    return Malformed("the server's tools/list ran past " + std::to_string(kMaxToolListPages) +
                     " pages; bravebot-mcp reads no more");
  }
  cursor_ = next->get<std::string>();
  return NextPage{*cursor_};
}

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

McpFault ErrorAnswerFault(const ordered_json& error, const std::string& what) {
  auto code = error.is_object() ? error.find("code") : error.end();
  if (!error.is_object() || code == error.end() || !code->is_number_integer()) {
    return Malformed("the server answered " + what + " with an error that has no code");
  }
  const std::int64_t code_value = code->get<std::int64_t>();
  std::string text =
      "the server answered " + what + " with JSON-RPC error " + std::to_string(code_value);
  if (std::string_view name = JsonRpcErrorName(code_value); !name.empty()) {
    text += " (" + std::string(name) + ")";
  }
  return McpFault{McpFailureKind::kErrorResponse, std::move(text), code_value};
}

McpFault NotAMessageFault(std::string_view line, bool is_json) {
  return McpFault{McpFailureKind::kNotJson,
                  std::string("the server wrote a line that is ") +
                      (is_json ? "not a JSON-RPC message" : "not JSON") +
                      " before answering initialize: " + QuoteLine(line) +
                      " (a stdio MCP server may write only MCP messages to its standard output; "
                      "its logging belongs on standard error)",
                  std::nullopt};
}

McpFault NoAnswerFault(const std::string& what, std::chrono::steady_clock::duration wait) {
  return McpFault{McpFailureKind::kTimedOut,
                  "no answer to " + what + " within " + DescribeWait(wait), std::nullopt};
}

std::string DescribeWait(std::chrono::steady_clock::duration wait) {
  auto ms = std::chrono::round<std::chrono::milliseconds>(wait).count();
  if (ms < 0) ms = 0;
  if (ms < 1000) return std::to_string(ms) + " ms";
  if (ms % 1000 == 0) return std::to_string(ms / 1000) + " s";
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f s", static_cast<double>(ms) / 1000.0);
  return text;
}

bool IsBlankLine(std::string_view line) {
  return std::all_of(line.begin(), line.end(),
                     [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
}

}  // namespace bravebot
