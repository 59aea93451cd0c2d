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

}  // namespace

std::string RequestWhat(const std::string& method, const std::optional<std::string>& tool) {
  if (method != "tools/call" || !tool) return method;
  return method + " for " + EscapeControlCharacters(*tool);
}

std::optional<PassedOnRequest> ReadPassedOnRequest(std::string_view line) {
  auto message = ReadJsonObjectMembers(line);
  if (!message || !OnlyThese(*message, {"jsonrpc", "id", "method", "params"})) return std::nullopt;
  if (JsonStringValue(FindJsonMember(*message, "jsonrpc")) != "2.0" ||
      JsonStringValue(FindJsonMember(*message, "method")) != "server/request") {
    return std::nullopt;
  }
  const std::string_view id_text = FindJsonMember(*message, "id");
  if (id_text.empty()) return std::nullopt;
  PassedOnRequest request;
  request.id = Json::parse(id_text, nullptr, /*allow_exceptions=*/false);
  if (!request.id.is_number_integer() && !request.id.is_string()) return std::nullopt;

  auto params = ReadJsonObjectMembers(FindJsonMember(*message, "params"));
  if (!params || !OnlyThese(*params, {"alias", "method", "params"})) return std::nullopt;
  std::optional<std::string> alias = JsonStringValue(FindJsonMember(*params, "alias"));
  std::optional<std::string> method = JsonStringValue(FindJsonMember(*params, "method"));
  // The handshake is the supervisor's: refused, with its words, on the whole reading.
  if (!alias || !method || *method == "initialize" || *method == "notifications/initialized") {
    return std::nullopt;
  }
  request.alias = std::move(*alias);
  request.method = std::move(*method);
  const std::string_view params_text = FindJsonMember(*params, "params");
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

}  // namespace bravebot
