#include "cli/import_sources.h"

#include <toml++/toml.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <sstream>

#include "base/json_depth.h"
#include "supervisor/store/json_text.h"

namespace bravebot {
namespace {

using Json = nlohmann::json;

// A TOML document's values as JSON, so one reading serves both kinds of
// file. Dates and times become their TOML text; none is read here.
Result<Json> FromToml(const toml::node& node, std::size_t depth) {
  if (depth > kMaxJsonDepth) {
    return Error(ErrorCode::kCorrupt,
                 "nests deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  }
  if (const toml::table* table = node.as_table()) {
    Json object = Json::object();
    for (const auto& [key, value] : *table) {
      BRAVEBOT_ASSIGN_OR_RETURN(object[std::string(key.str())], FromToml(value, depth + 1));
    }
    return object;
  }
  if (const toml::array* array = node.as_array()) {
    Json list = Json::array();
    for (const toml::node& value : *array) {
      BRAVEBOT_ASSIGN_OR_RETURN(Json element, FromToml(value, depth + 1));
      list.push_back(std::move(element));
    }
    return list;
  }
  if (auto text = node.value_exact<std::string>()) return Json(*text);
  if (auto number = node.value_exact<std::int64_t>()) return Json(*number);
  if (auto number = node.value_exact<double>()) return Json(*number);
  if (auto flag = node.value_exact<bool>()) return Json(*flag);
  // A date, a time or both: nothing import reads, kept as its text.
  std::ostringstream text;
  node.visit([&text](const auto& value) {
    if constexpr (toml::is_date<decltype(value)> || toml::is_time<decltype(value)> ||
                  toml::is_date_time<decltype(value)>) {
      text << value;
    }
  });
  return Json(text.str());
}

// The servers of a Codex config.toml, as the JSON object a .mcp.json holds.
Result<Json> ServersOfToml(std::string_view text) {
  toml::table document;
  try {
    document = toml::parse(text);
  } catch (const toml::parse_error& error) {
    return Error(ErrorCode::kCorrupt, "is not TOML: the parser stopped at line " +
                                          std::to_string(error.source().begin.line) + ", column " +
                                          std::to_string(error.source().begin.column));
  }
  const toml::node* servers = document.get("mcp_servers");
  if (servers == nullptr) return Json::object();
  if (!servers->is_table())
    return Error(ErrorCode::kCorrupt, "holds an mcp_servers that is not a table");
  return FromToml(*servers, 1);
}

Result<Json> ServersOfJson(std::string_view text) {
  BRAVEBOT_ASSIGN_OR_RETURN(Json document, ParseJsonText(text));
  if (!document.is_object()) return Error(ErrorCode::kCorrupt, "is not a JSON object");
  auto servers = document.find("mcpServers");
  if (servers == document.end()) return Json::object();
  if (!servers->is_object())
    return Error(ErrorCode::kCorrupt, "holds an mcpServers that is not an object");
  return *servers;
}

// `${NAME}`, the whole of a value: the name it refers to.
std::optional<std::string> ReferredVariable(const std::string& value) {
  static const std::regex kReference(R"(\$\{([A-Za-z_][A-Za-z0-9_]*)\})");
  std::smatch match;
  if (!std::regex_match(value, match, kReference)) return std::nullopt;
  return match[1].str();
}

bool HoldsReference(const std::string& value) { return value.find("${") != std::string::npos; }

// A field that is there and false, read without throwing on another type.
bool IsFalse(const Json& entry, const char* field) {
  auto found = entry.find(field);
  return found != entry.end() && found->is_boolean() && !found->get<bool>();
}

// A string field, "" where it is missing or not a string.
std::string StringField(const Json& entry, const char* field) {
  auto found = entry.find(field);
  return found != entry.end() && found->is_string() ? found->get<std::string>() : "";
}

// The names a header field of the entry gives (its values are never shown).
std::vector<std::string> HeaderNames(const Json& entry) {
  std::vector<std::string> names;
  for (const char* field : {"headers", "http_headers", "env_http_headers"}) {
    auto headers = entry.find(field);
    if (headers == entry.end() || !headers->is_object()) continue;
    for (const auto& [name, value] : headers->items()) names.push_back(name);
  }
  return names;
}

std::string Joined(const std::vector<std::string>& words) {
  std::string joined;
  for (const std::string& word : words) joined += (joined.empty() ? "" : ", ") + word;
  return joined;
}

// The words of a program server: its variables, its directory, then `--`
// and what it runs. "" in `refusal` where it can be declared.
void ProgramWords(const Json& entry, bool expand, ImportEntry& out) {
  auto command = entry.find("command");
  if (command == entry.end() || !command->is_string() || command->get<std::string>().empty()) {
    out.refusal = "it names no command to run";
    return;
  }
  std::vector<std::string> runs = {command->get<std::string>()};
  if (auto args = entry.find("args"); args != entry.end()) {
    if (!args->is_array()) {
      out.refusal = "its args are not a list";
      return;
    }
    for (const Json& arg : *args) {
      if (!arg.is_string()) {
        out.refusal = "its args hold something that is not a string";
        return;
      }
      runs.push_back(arg.get<std::string>());
    }
  }
  if (expand) {
    for (const std::string& word : runs) {
      if (!HoldsReference(word)) continue;
      out.refusal =
          "what it runs holds ${...}, which the client expands and bravebot-mcp does not: give the "
          "value, or pass the variable with -e NAME";
      return;
    }
  }
  std::vector<std::string> passed;
  if (auto env = entry.find("env"); env != entry.end()) {
    if (!env->is_object()) {
      out.refusal = "its env is not an object";
      return;
    }
    for (const auto& [name, value] : env->items()) {
      if (!value.is_string()) {
        out.refusal = "its variable " + name + " is not a string";
        return;
      }
      const std::string text = value.get<std::string>();
      if (!expand || !HoldsReference(text)) {
        out.add_words.insert(out.add_words.end(), {"-e", name + "=" + text});
        continue;
      }
      std::optional<std::string> referred = ReferredVariable(text);
      if (referred && *referred == name) {
        passed.push_back(name);
        continue;
      }
      out.refusal = referred ? "its variable " + name + " takes ${" + *referred +
                                   "}, another variable's value, and bravebot-mcp passes a "
                                   "variable only under its own name"
                             : "its variable " + name +
                                   " holds ${...} within other text, which the client expands "
                                   "and bravebot-mcp does not";
      return;
    }
  }
  if (auto forwarded = entry.find("env_vars"); forwarded != entry.end()) {
    if (!forwarded->is_array()) {
      out.refusal = "its env_vars are not a list";
      return;
    }
    for (const Json& name : *forwarded) {
      if (!name.is_string()) {
        out.refusal = "its env_vars hold something that is not a name";
        return;
      }
      passed.push_back(name.get<std::string>());
    }
  }
  for (const std::string& name : passed) out.add_words.insert(out.add_words.end(), {"-e", name});
  if (auto cwd = entry.find("cwd"); cwd != entry.end()) {
    if (!cwd->is_string()) {
      out.refusal = "its cwd is not a path";
      return;
    }
    out.add_words.insert(out.add_words.end(), {"--dir", cwd->get<std::string>()});
  }
  out.add_words.push_back("--");
  out.add_words.insert(out.add_words.end(), runs.begin(), runs.end());
}

ImportEntry Translate(const std::string& name, const Json& entry) {
  ImportEntry out;
  out.name = name;
  if (!entry.is_object()) {
    out.refusal = "it is not an object";
    return out;
  }
  if (IsFalse(entry, "enabled")) {
    out.refusal = "it is turned off there (enabled: false)";
    return out;
  }
  const bool expand = !IsFalse(entry, "expandVariables");
  std::string type = StringField(entry, "type");
  if (type.empty()) type = entry.contains("url") && !entry.contains("command") ? "http" : "stdio";
  if (type == "sse") {
    out.refusal = "it is an SSE server, and bravebot-mcp speaks MCP's streamable HTTP only";
    return out;
  }
  if (type == "http" || type == "streamable-http" || type == "streamableHttp") {
    std::vector<std::string> headers = HeaderNames(entry);
    if (entry.contains("bearer_token_env_var")) headers.push_back("Authorization");
    if (!headers.empty()) {
      out.refusal = "its headers (" + Joined(headers) +
                    ") are not imported: a token in a header is a stored value bravebot-mcp "
                    "cannot send yet";
      return out;
    }
    auto url = entry.find("url");
    if (url == entry.end() || !url->is_string()) {
      out.refusal = "it names no url";
      return out;
    }
    if (expand && HoldsReference(url->get<std::string>())) {
      out.refusal = "its url holds ${...}, which the client expands and bravebot-mcp does not";
      return out;
    }
    out.add_words = {"--http", url->get<std::string>()};
  } else if (type == "stdio") {
    ProgramWords(entry, expand, out);
  } else {
    out.refusal = "its type " + type + " is none bravebot-mcp knows (stdio, http)";
    return out;
  }
  if (out.refusal.empty() &&
      (entry.contains("enabled_tools") || entry.contains("disabled_tools"))) {
    out.notes.push_back(
        "its enabled_tools and disabled_tools are not carried over: each session puts its list "
        "of tools to you");
  }
  if (!out.refusal.empty()) out.add_words.clear();
  return out;
}

}  // namespace

Result<std::vector<ImportEntry>> ReadServersToImport(std::string_view text, std::string_view path) {
  const bool toml_file = path.ends_with(".toml");
  BRAVEBOT_ASSIGN_OR_RETURN(Json servers, toml_file ? ServersOfToml(text) : ServersOfJson(text));
  std::vector<ImportEntry> entries;
  for (const auto& [name, entry] : servers.items()) entries.push_back(Translate(name, entry));
  return entries;
}

}  // namespace bravebot
