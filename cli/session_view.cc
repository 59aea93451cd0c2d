#include "cli/session_view.h"

#include <cctype>

#include "base/shown_text.h"
#include "supervisor/tools/tool_list_view.h"

namespace bravebot {
namespace {

using Json = nlohmann::ordered_json;

constexpr char kCallLineForm[] =
    "a call is ALIAS:TOOL followed by its arguments as a JSON object, such as "
    "weather:get_alerts {\"city_name\": \"Toronto\"}; /status and /release are the session's "
    "own, and the end of input closes it";

std::string_view Trimmed(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

// Each row of `text` behind the margin, escaped.
std::string MarginRows(std::string_view text) {
  std::string rows;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = text.find('\n', start);
    std::string_view row = text.substr(start, end == std::string_view::npos ? end : end - start);
    if (!row.empty() && row.back() == '\r') row.remove_suffix(1);
    rows += kServerWordsMargin + EscapeControlCharacters(row) + "\n";
    if (end == std::string_view::npos) return rows;
    start = end + 1;
  }
}

std::string StringMember(const Json& object, const char* name) {
  auto member = object.find(name);
  return member != object.end() && member->is_string() ? member->get<std::string>() : "";
}

// An image, audio or a resource, named with its type and size, not drawn.
std::string NamedContent(const Json& item) {
  const std::string type = StringMember(item, "type");
  if (type == "image" || type == "audio") {
    const std::size_t bytes = StringMember(item, "data").size() / 4 * 3;
    return "[" + type + ", " + StringMember(item, "mimeType") + ", about " + std::to_string(bytes) +
           " bytes]";
  }
  if (type == "resource_link") return "[a link to " + StringMember(item, "uri") + "]";
  return "[" + (type.empty() ? std::string("content of no type") : type) + "]";
}

std::string ContentRows(const Json& item) {
  if (!item.is_object()) return MarginRows(item.dump());
  const std::string type = StringMember(item, "type");
  if (type == "text") return MarginRows(StringMember(item, "text"));
  if (type == "resource" && item.contains("resource") && item["resource"].is_object()) {
    const Json& resource = item["resource"];
    std::string rows = MarginRows("[the resource " + StringMember(resource, "uri") + "]");
    if (resource.contains("text")) rows += MarginRows(StringMember(resource, "text"));
    return rows;
  }
  return MarginRows(NamedContent(item));
}

}  // namespace

Result<CallLine> ParseCallLine(std::string_view line) {
  line = Trimmed(line);
  const std::size_t name_end = line.find_first_of(" \t{");
  std::string_view name = line.substr(0, name_end);
  const std::size_t colon = name.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == name.size()) {
    return Error(ErrorCode::kUsage, "that line names no ALIAS:TOOL: " + std::string(kCallLineForm));
  }
  CallLine call;
  call.alias = std::string(name.substr(0, colon));
  call.tool = std::string(name.substr(colon + 1));
  std::string_view arguments =
      name_end == std::string_view::npos ? std::string_view() : Trimmed(line.substr(name_end));
  if (arguments.empty()) return call;
  call.arguments = Json::parse(arguments, nullptr, /*allow_exceptions=*/false);
  if (call.arguments.is_discarded() || !call.arguments.is_object()) {
    return Error(ErrorCode::kUsage, "the arguments of " + call.alias + ":" + call.tool +
                                        " are not a JSON object: " + kCallLineForm);
  }
  return call;
}

std::string CallResultText(const std::string& alias, const std::string& tool, const Json& result) {
  const std::string name = alias + ":" + EscapeControlCharacters(tool);
  const bool failed = result.is_object() && result.value("isError", false) == true;
  std::string text = failed ? name + " reported its own failure:\n" : name + " returned:\n";
  if (!result.is_object()) return text + MarginRows(result.dump());
  auto content = result.find("content");
  if (content != result.end() && content->is_array() && !content->empty()) {
    for (const Json& item : *content) text += ContentRows(item);
  } else if (result.contains("structuredContent")) {
    text += MarginRows(result["structuredContent"].dump(2));
  } else {
    text += MarginRows("(nothing)");
  }
  return text;
}

std::string LintText(const std::string& alias, const Json& lint) {
  if (!lint.is_array() || lint.empty()) {
    return "a plain reading of " + alias + "'s list found nothing to warn of\n";
  }
  std::string text = "a plain reading of " + alias + "'s list found:\n";
  for (const Json& finding : lint) {
    const std::string tool = StringMember(finding, "tool");
    text += "  " + (tool.empty() ? alias : alias + ":" + tool) + ", its " +
            StringMember(finding, "where") + ": " + StringMember(finding, "text") + "\n";
  }
  return text;
}

std::string ConfinementText(const Json& confinement) {
  return "  Confinement   " + StringMember(confinement, "line") + "\n                  " +
         StringMember(confinement, "detail") + "\n";
}

}  // namespace bravebot
