#include "cli/import_sources.h"

#include <toml++/toml.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "base/bounded_json.h"
#include "cli/import_aliases.h"
#include "cli/import_variables.h"
#include "confine/declaration.h"
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

// Whether a TOML text nests deeper than we read, before toml++ reads it:
// toml++ follows dotted keys (a.b.c) and nested arrays and inline tables
// by recursion, without a bound, so a key of 100,000 dots would overflow
// the stack. Counts the dots of each whole line (a dotted key may stand in
// an inline table, or after a quoted key holding `=`), and the brackets
// and braces of the whole text, strings included: a dot or a bracket in a
// string only makes the bound stricter.
bool TomlNestsTooDeep(std::string_view text) {
  std::size_t depth = 0;
  for (char c : text) {
    if ((c == '[' || c == '{') && ++depth > kMaxJsonDepth) return true;
    if ((c == ']' || c == '}') && depth > 0) --depth;
  }
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (static_cast<std::size_t>(std::count(line.begin(), line.end(), '.')) > kMaxJsonDepth) {
      return true;
    }
    start = end + 1;
  }
  return false;
}

// The servers of a Codex config.toml, as the JSON object a .mcp.json holds.
Result<Json> ServersOfToml(std::string_view text) {
  if (TomlNestsTooDeep(text)) {
    return Error(ErrorCode::kCorrupt,
                 "nests deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  }
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

// The servers of one object of a JSON file, by the field `key` ("" where
// there is none), each with the origin said of it.
struct ServerGroup {
  Json servers;
  std::string origin;
};

Result<Json> ObjectField(const Json& holder, const std::string& key) {
  auto servers = holder.find(key);
  if (servers == holder.end()) return Json::object();
  if (!servers->is_object()) {
    const std::string article = key.starts_with('m') ? "an " : "a ";
    return Error(ErrorCode::kCorrupt, "holds " + article + key + " that is not an object");
  }
  return *servers;
}

// The groups of servers a JSON file holds, as the kinds of file above lay
// them out.
Result<std::vector<ServerGroup>> ServersOfJson(const Json& document) {
  if (!document.is_object()) return Error(ErrorCode::kCorrupt, "is not a JSON object");
  std::vector<ServerGroup> groups;
  if (document.contains("servers") && !document.contains("mcpServers")) {
    BRAVEBOT_ASSIGN_OR_RETURN(Json servers, ObjectField(document, "servers"));
    groups.push_back({std::move(servers), ""});
    return groups;
  }
  BRAVEBOT_ASSIGN_OR_RETURN(Json own, ObjectField(document, "mcpServers"));
  groups.push_back({std::move(own), ""});
  auto projects = document.find("projects");
  if (projects == document.end() || !projects->is_object()) return groups;
  for (const auto& [project, settings] : projects->items()) {
    if (!settings.is_object()) continue;
    auto servers = settings.find("mcpServers");
    if (servers == settings.end()) continue;
    if (!servers->is_object()) {
      return Error(ErrorCode::kCorrupt,
                   "holds a project whose mcpServers is not an object (" + project + ")");
    }
    groups.push_back({*servers, "the project " + project});
  }
  return groups;
}

// `${NAME}` or `${env:NAME}`, the whole of a value: the name it refers to.
std::optional<std::string> ReferredVariable(std::string_view value) {
  if (!value.starts_with("${") || !value.ends_with('}')) return std::nullopt;
  std::string_view name = value.substr(2, value.size() - 3);
  if (name.starts_with("env:")) name.remove_prefix(4);
  if (!IsValidVariableName(name)) return std::nullopt;
  return std::string(name);
}

bool HoldsReference(const std::string& value) { return value.find("${") != std::string::npos; }

// A field that is there and false, read without throwing on another type.
bool IsFalse(const Json& entry, const char* field) {
  auto found = entry.find(field);
  return found != entry.end() && found->is_boolean() && !found->get<bool>();
}

// A field that is there and true (Windsurf's and Cursor's "disabled").
bool IsTrue(const Json& entry, const char* field) {
  auto found = entry.find(field);
  return found != entry.end() && found->is_boolean() && found->get<bool>();
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
  // A relative path would be read against the other client's directory,
  // which is not known here.
  const std::string program = command->get<std::string>();
  if (program.find('/') != std::string::npos && !program.starts_with('/')) {
    out.refusal = "its command " + program +
                  " is a relative path, which its client reads against a directory of its own: "
                  "give an absolute path";
    return;
  }
  std::vector<std::string> runs = {program};
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
      if (!IsValidVariableName(name)) {
        out.refusal =
            "one of its env names is not a variable's name (an ASCII letter or _, then "
            "letters, digits and _)";
        return;
      }
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
      out.refusal = referred ? "its variable " + name + " takes " + text +
                                   ", another variable's value, and bravebot-mcp passes a "
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
      if (!name.is_string() || !IsValidVariableName(name.get<std::string>())) {
        out.refusal = "its env_vars hold something that is not a variable's name";
        return;
      }
      passed.push_back(name.get<std::string>());
    }
  }
  for (const std::string& name : passed) out.add_words.insert(out.add_words.end(), {"-e", name});
  if (auto cwd = entry.find("cwd"); cwd != entry.end()) {
    if (!cwd->is_string() || !cwd->get<std::string>().starts_with('/')) {
      out.refusal = "its cwd is not an absolute path, which is all import takes";
      return;
    }
    out.add_words.insert(out.add_words.end(), {"--dir", cwd->get<std::string>()});
  }
  out.add_words.push_back("--");
  out.add_words.insert(out.add_words.end(), runs.begin(), runs.end());
}

ImportEntry Translate(const std::string& name, Json entry, const EditorVariables& variables) {
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
  if (IsTrue(entry, "disabled")) {
    out.refusal = "it is turned off there (disabled: true)";
    return out;
  }
  const bool expand = !IsFalse(entry, "expandVariables");
  // Windsurf names a service's address serverUrl.
  if (auto address = entry.find("serverUrl"); address != entry.end() && !entry.contains("url")) {
    entry["url"] = *address;
    entry.erase("serverUrl");
  }
  if (expand) {
    out.refusal = PutInEditorVariables(entry, variables);
    if (!out.refusal.empty()) return out;
  }
  std::string type = StringField(entry, "type");
  if (type.empty()) type = entry.contains("url") && !entry.contains("command") ? "http" : "stdio";
  if (type == "sse") {
    out.refusal = "it is an SSE server, and bravebot-mcp speaks MCP's streamable HTTP only";
    return out;
  }
  const bool service = type == "http" || type == "streamable-http" || type == "streamableHttp";
  if (!service && type != "stdio") {
    out.refusal = "its type " + type + " is none bravebot-mcp knows (stdio, http)";
    return out;
  }
  // What the other kind of server holds would be dropped without a word.
  const std::vector<std::string> other_kind =
      service ? std::vector<std::string>{"command", "args", "env", "env_vars", "envFile", "cwd"}
              : std::vector<std::string>{"url", "headers", "http_headers"};
  for (const std::string& field : other_kind) {
    if (!entry.contains(field)) continue;
    out.refusal = std::string(service ? "it is a service, and" : "it runs a program, and") +
                  " names a " + field + " too, which such a declaration cannot hold";
    return out;
  }
  if (service) {
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
  } else if (auto file = entry.find("envFile"); file != entry.end()) {
    out.refusal = "its envFile " + (file->is_string() ? file->get<std::string>() + " " : "") +
                  "is read by its client as the server starts, and a declaration reads no such "
                  "file: bravebot-mcp add declares it with each variable given by -e";
  } else {
    ProgramWords(entry, expand, out);
  }
  for (const std::string& word : out.add_words) {
    if (out.refusal.empty() && word.find('\0') != std::string::npos) {
      out.refusal = "it holds a NUL byte, which no program, path or variable can hold";
    }
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

Result<std::vector<ImportEntry>> ReadServersToImport(std::string_view text, std::string_view path,
                                                     std::string_view home) {
  EditorVariables variables{WorkspaceFolderOf(path, home), std::string(home), {}};
  std::vector<ServerGroup> groups;
  if (path.ends_with(".toml")) {
    BRAVEBOT_ASSIGN_OR_RETURN(Json servers, ServersOfToml(text));
    groups.push_back({std::move(servers), ""});
  } else {
    BRAVEBOT_ASSIGN_OR_RETURN(Json document, ParseJsonText(text));
    BRAVEBOT_ASSIGN_OR_RETURN(groups, ServersOfJson(document));
    variables.input_descriptions = InputDescriptions(document);
  }
  std::size_t count = 0;
  for (const ServerGroup& group : groups) count += group.servers.size();
  if (count > kMaxImportedServers) {
    return Error(ErrorCode::kRefused, "declares " + std::to_string(count) +
                                          " MCP servers, more than the " +
                                          std::to_string(kMaxImportedServers) +
                                          " one import takes: nothing was imported");
  }
  std::vector<ImportEntry> entries;
  for (const ServerGroup& group : groups) {
    for (const auto& [name, entry] : group.servers.items()) {
      entries.push_back(Translate(name, entry, variables));
      entries.back().origin = group.origin;
    }
  }
  ClaimAliases(entries);
  return entries;
}

}  // namespace bravebot
