#include "supervisor/tools/model_tools.h"

#include <array>
#include <string_view>

#include "base/sha256.h"
#include "supervisor/tools/tool_list_view.h"

namespace bravebot {
namespace {

using nlohmann::ordered_json;

// Keywords about the shape of a value, whose values are numbers, booleans,
// type names or schemas: kept. Everything else a schema may hold can carry a
// sentence (description, title, examples, default, const, $comment, a
// keyword of the server's own) and is left out.
constexpr std::array<std::string_view, 15> kShapeKeywords = {
    "type",       "required",      "enum",          "minimum",          "maximum",
    "minLength",  "maxLength",     "minItems",      "maxItems",         "uniqueItems",
    "multipleOf", "minProperties", "maxProperties", "exclusiveMinimum", "exclusiveMaximum"};
// Keywords whose value is a schema, a list of them, or a map of names to them.
constexpr std::array<std::string_view, 4> kSchemaKeywords = {"items", "additionalProperties", "not",
                                                             "contains"};
constexpr std::array<std::string_view, 4> kSchemaListKeywords = {"anyOf", "oneOf", "allOf",
                                                                 "prefixItems"};
constexpr std::array<std::string_view, 3> kSchemaMapKeywords = {"properties", "$defs",
                                                                "definitions"};

template <std::size_t N>
bool IsOneOf(std::string_view key, const std::array<std::string_view, N>& keys) {
  for (std::string_view each : keys) {
    if (key == each) return true;
  }
  return false;
}

// A short format name such as "date-time" or "uri", and nothing longer.
bool IsFormatName(const ordered_json& value) {
  if (!value.is_string()) return false;
  const std::string& name = value.get_ref<const std::string&>();
  if (name.empty() || name.size() > 32) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return true;
}

// A reference inside the same schema ("#/$defs/City"), and nothing else.
bool IsLocalReference(const ordered_json& value) {
  if (!value.is_string()) return false;
  const std::string& pointer = value.get_ref<const std::string&>();
  if (pointer.rfind("#/", 0) != 0 || pointer.size() > 256) return false;
  for (char c : pointer) {
    if (c == ' ' || static_cast<unsigned char>(c) < 0x20) return false;
  }
  return true;
}

ordered_json ShapeOf(const ordered_json& schema) {
  // true and false are schemas too; anything else that is no object says nothing.
  if (schema.is_boolean()) return schema;
  if (!schema.is_object()) return ordered_json::object();
  ordered_json shape = ordered_json::object();
  for (auto member = schema.begin(); member != schema.end(); ++member) {
    const std::string& key = member.key();
    if (IsOneOf(key, kShapeKeywords)) {
      shape[key] = member.value();
    } else if (IsOneOf(key, kSchemaKeywords)) {
      if (member->is_array()) {  // items as a list, the older tuple form
        ordered_json list = ordered_json::array();
        for (const ordered_json& each : *member) list.push_back(ShapeOf(each));
        shape[key] = std::move(list);
      } else {
        shape[key] = ShapeOf(*member);
      }
    } else if (IsOneOf(key, kSchemaListKeywords) && member->is_array()) {
      ordered_json list = ordered_json::array();
      for (const ordered_json& each : *member) list.push_back(ShapeOf(each));
      shape[key] = std::move(list);
    } else if (IsOneOf(key, kSchemaMapKeywords) && member->is_object()) {
      ordered_json map = ordered_json::object();
      for (auto each = member->begin(); each != member->end(); ++each) {
        map[each.key()] = ShapeOf(each.value());
      }
      shape[key] = std::move(map);
    } else if (key == "format" && IsFormatName(*member)) {
      shape[key] = member.value();
    } else if (key == "$ref" && IsLocalReference(*member)) {
      shape[key] = member.value();
    }
  }
  return shape;
}

}  // namespace

std::string ToolListDigest(const std::vector<ordered_json>& tools) {
  ordered_json list(tools);
  return Sha256Hex(list.dump(-1, ' ', false, ordered_json::error_handler_t::replace));
}

std::string ModelToolName(const std::string& alias, const std::string& tool) {
  return "mcp__" + alias + "__" + tool;
}

std::string ModelToolPreface(const std::string& alias) {
  return "A tool of the MCP server " + alias +
         ", which bravebot runs confined. Every call to it is put to the user, who may decline "
         "it. What follows is the server's own description.";
}

ordered_json ModelTools(const std::string& alias, const std::vector<ordered_json>& tools) {
  ordered_json offered = ordered_json::array();
  for (const ordered_json& tool : tools) {
    std::string name;
    if (auto found = tool.find("name"); found != tool.end() && found->is_string()) {
      name = found->get<std::string>();
    }
    std::string description = ModelToolPreface(alias);
    if (auto found = tool.find("description"); found != tool.end() && found->is_string() &&
                                               !found->get_ref<const std::string&>().empty()) {
      description += "\n\n" + ShownDescription(found->get_ref<const std::string&>());
    }
    ordered_json schema = ordered_json::object();
    if (auto found = tool.find("inputSchema"); found != tool.end()) schema = ShapeOf(*found);
    if (!schema.contains("type")) schema["type"] = "object";
    offered.push_back({{"name", ModelToolName(alias, name)},
                       {"description", std::move(description)},
                       {"inputSchema", std::move(schema)}});
  }
  return offered;
}

}  // namespace bravebot
