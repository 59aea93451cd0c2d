#include "supervisor/tools/tool_list_view.h"

#include <string_view>

#include "base/shown_text.h"

namespace bravebot {
namespace {

// "string", "string or null" for ["string", "null"], and the types of anyOf /
// oneOf alternatives the same way; empty when the schema gives none.
template <typename Json>
std::string TypeText(const Json& schema) {
  std::string text;
  auto add = [&text](const Json& type) {
    if (!type.is_string()) return;
    if (!text.empty()) text += " or ";
    text += EscapeControlCharacters(type.template get_ref<const std::string&>());
  };
  if (auto type = schema.find("type"); type != schema.end()) {
    if (type->is_array()) {
      for (const Json& each : *type) add(each);
    } else {
      add(*type);
    }
    return text;
  }
  for (const char* alternatives : {"anyOf", "oneOf"}) {
    auto listed = schema.find(alternatives);
    if (listed == schema.end() || !listed->is_array()) continue;
    for (const Json& alternative : *listed) {
      if (!alternative.is_object()) continue;
      if (auto type = alternative.find("type"); type != alternative.end()) add(*type);
    }
    if (!text.empty()) return text;
  }
  return text;
}

template <typename Json>
std::string ValueText(const Json& value) {
  if (value.is_string())
    return EscapeControlCharacters(value.template get_ref<const std::string&>());
  return EscapeControlCharacters(value.dump(-1, ' ', false, Json::error_handler_t::replace));
}

// "active_only (boolean), detail (string, summary | standard | full)".
template <typename Json>
std::string ArgumentsText(const Json& tool) {
  auto schema = tool.find("inputSchema");
  if (schema == tool.end() || !schema->is_object()) return "";
  auto properties = schema->find("properties");
  if (properties == schema->end() || !properties->is_object()) return "";
  std::string text;
  for (auto property = properties->begin(); property != properties->end(); ++property) {
    if (!text.empty()) text += ", ";
    text += EscapeControlCharacters(property.key());
    std::string detail;
    if (property->is_object()) {
      detail = TypeText(*property);
      if (auto values = property->find("enum"); values != property->end() && values->is_array()) {
        std::string listed;
        for (const Json& value : *values) {
          if (!listed.empty()) listed += " | ";
          listed += ValueText(value);
        }
        detail += (detail.empty() ? "" : ", ") + listed;
      }
    }
    if (!detail.empty()) text += " (" + detail + ")";
  }
  return text;
}

// Calls `row` with each row of `description`: "\r\n" ends a row as '\n' does.
template <typename EachRow>
void ForEachRow(std::string_view description, EachRow row) {
  while (true) {
    std::size_t end = description.find('\n');
    std::string_view text = description.substr(0, end);
    if (end != std::string_view::npos && !text.empty() && text.back() == '\r') {
      text.remove_suffix(1);
    }
    row(text);
    if (end == std::string_view::npos) return;
    description.remove_prefix(end + 1);
  }
}

// Each row of `description` behind the margin, its control characters escaped.
std::string DescriptionRows(std::string_view description) {
  std::string rows;
  ForEachRow(description, [&rows](std::string_view row) {
    rows += kServerWordsMargin;
    rows += EscapeControlCharacters(row);
    // A blank row is the margin alone, with no space trailing.
    if (row.empty()) rows.pop_back();
    rows += '\n';
  });
  return rows;
}

template <typename Json>
std::string Draw(const std::string& alias, const std::vector<Json>& tools) {
  std::string out = alias + " offers " + std::to_string(tools.size()) +
                    (tools.size() == 1 ? " tool\n" : " tools\n");
  if (tools.empty()) return out;
  out += '\n';
  for (std::size_t i = 0; i < tools.size(); ++i) {
    const Json& tool = tools[i];
    if (i > 0) out += '\n';
    std::string name;
    if (auto found = tool.find("name"); found != tool.end() && found->is_string()) {
      name = found->template get<std::string>();
    }
    out += "  " + alias + ":" + EscapeControlCharacters(name) + "\n";
    if (std::string arguments = ArgumentsText(tool); !arguments.empty()) {
      out += "    " + arguments + "\n";
    }
    auto description = tool.find("description");
    if (description != tool.end() && description->is_string() &&
        !description->template get_ref<const std::string&>().empty()) {
      out += DescriptionRows(description->template get_ref<const std::string&>());
    }
  }
  return out;
}

}  // namespace

std::string ShownDescription(std::string_view description) {
  std::string shown;
  bool first = true;
  ForEachRow(description, [&](std::string_view row) {
    if (!first) shown += '\n';
    first = false;
    shown += EscapeControlCharacters(row);
  });
  return shown;
}

std::string DisplayToolList(const std::string& alias,
                            const std::vector<nlohmann::ordered_json>& tools) {
  return Draw(alias, tools);
}

std::string DisplayToolList(const std::string& alias, const std::vector<nlohmann::json>& tools) {
  return Draw(alias, tools);
}

}  // namespace bravebot
