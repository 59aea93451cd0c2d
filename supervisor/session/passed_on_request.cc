#include "supervisor/session/passed_on_request.h"

#include <algorithm>

#include "base/json_members.h"
#include "base/shown_text.h"
#include "supervisor/mcp/mcp_connection.h"

namespace bravebot {
namespace {

// Whether every member is one of `known`.
bool OnlyThese(const std::vector<JsonMember>& members,
               std::initializer_list<std::string_view> known) {
  for (const JsonMember& member : members) {
    if (std::find(known.begin(), known.end(), member.key) == known.end()) return false;
  }
  return true;
}

// An object's text, "" for none (absent or null); nullopt for anything else.
// `value` is a member's, read whole already: its first character says.
std::optional<std::string> ObjectOrNothing(std::string_view value) {
  if (value.empty() || value == "null") return std::string();
  if (value.front() != '{') return std::nullopt;
  return std::string(value);
}

}  // namespace

std::string RequestWhat(const std::string& method, const std::optional<std::string>& tool) {
  if (method != "tools/call" || !tool) return method;
  return method + " for " + EscapeControlCharacters(*tool);
}

std::optional<SessionRequest> ReadSessionRequest(std::string_view line) {
  SessionRequest request;
  auto message = ReadJsonObjectMembers(line, "params", request.params);
  if (!message || !OnlyThese(*message, {"jsonrpc", "id", "method", "params"})) return std::nullopt;
  std::optional<std::string> method = JsonStringValue(FindJsonMember(*message, "method"));
  if (JsonStringValue(FindJsonMember(*message, "jsonrpc")) != "2.0" || !method) {
    return std::nullopt;
  }
  request.method = std::move(*method);
  const std::string_view id_text = FindJsonMember(*message, "id");
  if (id_text.empty()) return std::nullopt;
  request.id = Json::parse(id_text, nullptr, /*allow_exceptions=*/false);
  if (!request.id.is_number_integer() && !request.id.is_string()) return std::nullopt;
  // Its params an object (its members read above): a request without them
  // is left to the whole reading.
  const std::string_view params = FindJsonMember(*message, "params");
  if (params.empty() || params.front() != '{') return std::nullopt;
  return request;
}

std::optional<PassedOnRequest> ReadPassedOnRequest(SessionRequest read) {
  if (read.method != "server/request") return std::nullopt;
  PassedOnRequest request;
  request.id = std::move(read.id);
  const std::vector<JsonMember>& params = read.params;
  if (!OnlyThese(params, {"alias", "method", "params"})) return std::nullopt;
  std::optional<std::string> alias = JsonStringValue(FindJsonMember(params, "alias"));
  std::optional<std::string> method = JsonStringValue(FindJsonMember(params, "method"));
  // The handshake is the supervisor's: refused, with its words, on the whole reading.
  if (!alias || !method || *method == "initialize" || *method == "notifications/initialized") {
    return std::nullopt;
  }
  request.alias = std::move(*alias);
  request.method = std::move(*method);
  const std::string_view params_text = FindJsonMember(params, "params");
  std::optional<std::string> tool;
  if (!params_text.empty() && params_text != "null") {
    auto passed = ReadJsonObjectMembers(params_text);
    if (!passed) return std::nullopt;
    request.params_text = params_text;
    tool = JsonStringValue(FindJsonMember(*passed, "name"));
  }
  request.what = RequestWhat(request.method, tool);
  return request;
}

std::optional<PassedOnRequest> ReadPassedOnRequest(std::string_view line) {
  auto read = ReadSessionRequest(line);
  if (!read) return std::nullopt;
  return ReadPassedOnRequest(std::move(*read));
}

std::optional<PassedOnToolCall> ReadPassedOnToolCall(SessionRequest read) {
  if (read.method != "tool/call" ||
      !OnlyThese(read.params, {"alias", "tool", "arguments", "meta", "answer"})) {
    return std::nullopt;
  }
  PassedOnToolCall request{std::move(read.id), {}};
  ToolCallRequest& call = request.call;
  std::optional<std::string> alias = JsonStringValue(FindJsonMember(read.params, "alias"));
  std::optional<std::string> tool = JsonStringValue(FindJsonMember(read.params, "tool"));
  std::optional<std::string> arguments = ObjectOrNothing(FindJsonMember(read.params, "arguments"));
  std::optional<std::string> meta = ObjectOrNothing(FindJsonMember(read.params, "meta"));
  if (!alias || !tool || !arguments || !meta) return std::nullopt;
  call.alias = std::move(*alias);
  call.tool = std::move(*tool);
  call.arguments_text = std::move(*arguments);
  call.meta_text = std::move(*meta);
  const std::string_view answer = FindJsonMember(read.params, "answer");
  if (!answer.empty()) {
    call.answer = JsonStringValue(answer);
    if (!call.answer) return std::nullopt;
  }
  return request;
}

std::optional<PassedOnToolCall> ReadPassedOnToolCall(std::string_view line) {
  auto read = ReadSessionRequest(line);
  if (!read) return std::nullopt;
  return ReadPassedOnToolCall(std::move(*read));
}

ToolCallRequest AsShown(ToolCallRequest call) {
  for (std::string* text : {&call.arguments_text, &call.meta_text}) {
    if (text->empty()) continue;
    const Json read = Json::parse(*text, nullptr, /*allow_exceptions=*/false);
    *text = read.dump(-1, ' ', false, Json::error_handler_t::replace);
  }
  return call;
}

std::string ToolsCallParams(const ToolCallRequest& call) {
  std::string params;
  params.reserve(40 + call.tool.size() + call.arguments_text.size() + call.meta_text.size());
  params += R"({"name":)";
  params += JsonStringText(call.tool);
  params += R"(,"arguments":)";
  params += call.arguments_text.empty() ? "{}" : call.arguments_text;
  if (!call.meta_text.empty()) {
    params += R"(,"_meta":)";
    params += call.meta_text;
  }
  params += '}';
  return params;
}

}  // namespace bravebot
