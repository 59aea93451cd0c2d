#include "cli/import_variables.h"

#include <vector>

namespace bravebot {
namespace {

using Json = nlohmann::json;

constexpr std::string_view kInput = "${input:";
constexpr std::string_view kWorkspaceFolder = "${workspaceFolder}";
// A description longer than a line is cut: it is said, not read.
constexpr std::size_t kLongestDescription = 80;

void Replace(std::string& text, std::string_view from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

// `${input:ID}` in `text`, and what the inputs say of it: "${input:key}
// (API Key)". "" where `text` holds none.
std::string InputIn(const std::string& text, const EditorVariables& variables) {
  const std::size_t start = text.find(kInput);
  if (start == std::string::npos) return "";
  const std::size_t end = text.find('}', start);
  if (end == std::string::npos) return "";
  const std::string id = text.substr(start + kInput.size(), end - start - kInput.size());
  std::string said = text.substr(start, end + 1 - start);
  if (auto found = variables.input_descriptions.find(id);
      found != variables.input_descriptions.end() && !found->second.empty()) {
    said += " (" + found->second.substr(0, kLongestDescription) + ")";
  }
  return said;
}

// Puts the known paths into `text`; why it cannot be, or "".
std::string PutIn(std::string& text, const std::string& field, const EditorVariables& variables,
                  bool whole_variable) {
  if (std::string input = InputIn(text, variables); !input.empty()) {
    const bool whole = text.starts_with(kInput) && text.find('}') + 1 == text.size();
    const std::string what = whole_variable                          ? "its variable " + field
                             : field == "args" || field == "command" ? std::string("what it runs")
                                                                     : "its " + field;
    return what + (whole_variable && whole ? " is " : " holds ") + input +
           ", a value VS Code asks for as the server starts, and import has none to give it: "
           "bravebot-mcp add declares it with the value";
  }
  if (text.find(kWorkspaceFolder) != std::string::npos) {
    if (variables.workspace_folder.empty()) {
      return "it refers to ${workspaceFolder}, the folder open in the editor, which import knows "
             "only for a .vscode/mcp.json or a project's .cursor/mcp.json (the folder holding "
             "it): give the path";
    }
    Replace(text, kWorkspaceFolder, variables.workspace_folder);
  }
  if (!variables.user_home.empty()) Replace(text, "${userHome}", variables.user_home);
  return "";
}

}  // namespace

std::string WorkspaceFolderOf(std::string_view path, std::string_view home) {
  const std::size_t file_slash = path.rfind('/');
  if (file_slash == std::string_view::npos || file_slash == 0) return "";
  const std::string_view directory = path.substr(0, file_slash);
  const std::size_t slash = directory.rfind('/');
  if (slash == std::string_view::npos) return "";
  const std::string_view name = directory.substr(slash + 1);
  std::string folder(slash == 0 ? "/" : directory.substr(0, slash));
  if (name == ".vscode") return folder;
  if (name == ".cursor" && folder != home) return folder;
  return "";
}

std::map<std::string, std::string> InputDescriptions(const Json& document) {
  std::map<std::string, std::string> descriptions;
  auto inputs = document.find("inputs");
  if (inputs == document.end() || !inputs->is_array()) return descriptions;
  for (const Json& input : *inputs) {
    if (!input.is_object()) continue;
    auto id = input.find("id");
    auto description = input.find("description");
    if (id == input.end() || !id->is_string()) continue;
    descriptions[id->get<std::string>()] = description != input.end() && description->is_string()
                                               ? description->get<std::string>()
                                               : "";
  }
  return descriptions;
}

std::string PutInEditorVariables(Json& entry, const EditorVariables& variables) {
  if (!entry.is_object()) return "";
  for (const char* field : {"command", "url", "cwd", "envFile"}) {
    auto value = entry.find(field);
    if (value == entry.end() || !value->is_string()) continue;
    std::string text = value->get<std::string>();
    if (std::string refusal = PutIn(text, field, variables, false); !refusal.empty()) {
      return refusal;
    }
    *value = text;
  }
  if (auto args = entry.find("args"); args != entry.end() && args->is_array()) {
    for (Json& arg : *args) {
      if (!arg.is_string()) continue;
      std::string text = arg.get<std::string>();
      if (std::string refusal = PutIn(text, "args", variables, false); !refusal.empty()) {
        return refusal;
      }
      arg = text;
    }
  }
  if (auto env = entry.find("env"); env != entry.end() && env->is_object()) {
    for (auto& [name, value] : env->items()) {
      if (!value.is_string()) continue;
      std::string text = value.get<std::string>();
      if (std::string refusal = PutIn(text, name, variables, true); !refusal.empty()) {
        return refusal;
      }
      value = text;
    }
  }
  return "";
}

}  // namespace bravebot
