#include "supervisor/session/passed_on_request.h"

#include <algorithm>

#include "base/json_members.h"
#include "base/shown_text.h"

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

// A request of `method` with an id and params, read: its id, and the
// members of its params.
struct PlainRequest {
  Json id;
  std::vector<JsonMember> params;
};

std::optional<PlainRequest> ReadPlainRequest(std::string_view line, std::string_view method) {
  auto message = ReadJsonObjectMembers(line);
  if (!message || !OnlyThese(*message, {"jsonrpc", "id", "method", "params"})) return std::nullopt;
  if (JsonStringValue(FindJsonMember(*message, "jsonrpc")) != "2.0" ||
      JsonStringValue(FindJsonMember(*message, "method")) != method) {
    return std::nullopt;
  }
  const std::string_view id_text = FindJsonMember(*message, "id");
  if (id_text.empty()) return std::nullopt;
  PlainRequest request;
  request.id = Json::parse(id_text, nullptr, /*allow_exceptions=*/false);
  if (!request.id.is_number_integer() && !request.id.is_string()) return std::nullopt;
  auto params = ReadJsonObjectMembers(FindJsonMember(*message, "params"));
  if (!params) return std::nullopt;
  request.params = std::move(*params);
  return request;
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

std::optional<PassedOnRequest> ReadPassedOnRequest(std::string_view line) {
  auto read = ReadPlainRequest(line, "server/request");
  if (!read) return std::nullopt;
  PassedOnRequest request;
  request.id = std::move(read->id);
  const std::vector<JsonMember>& params = read->params;
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

std::optional<PassedOnToolCall> ReadPassedOnToolCall(std::string_view line) {
  auto read = ReadPlainRequest(line, "tool/call");
  if (!read || !OnlyThese(read->params, {"alias", "tool", "arguments", "meta", "answer"})) {
    return std::nullopt;
  }
  PassedOnToolCall request{std::move(read->id), {}};
  ToolCallRequest& call = request.call;
  std::optional<std::string> alias = JsonStringValue(FindJsonMember(read->params, "alias"));
  std::optional<std::string> tool = JsonStringValue(FindJsonMember(read->params, "tool"));
  std::optional<std::string> arguments = ObjectOrNothing(FindJsonMember(read->params, "arguments"));
  std::optional<std::string> meta = ObjectOrNothing(FindJsonMember(read->params, "meta"));
  if (!alias || !tool || !arguments || !meta) return std::nullopt;
  call.alias = std::move(*alias);
  call.tool = std::move(*tool);
  call.arguments_text = std::move(*arguments);
  call.meta_text = std::move(*meta);
  const std::string_view answer = FindJsonMember(read->params, "answer");
  if (!answer.empty()) {
    call.answer = JsonStringValue(answer);
    if (!call.answer) return std::nullopt;
  }
  return request;
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
  std::string params =
      R"({"name":)" + Json(call.tool).dump(-1, ' ', false, Json::error_handler_t::replace);
  params += R"(,"arguments":)";
  params += call.arguments_text.empty() ? "{}" : call.arguments_text;
  if (!call.meta_text.empty()) params += R"(,"_meta":)" + call.meta_text;
  return params + "}";
}

}  // namespace bravebot
