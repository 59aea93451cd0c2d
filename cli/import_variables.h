// The variables of VS Code (and Cursor) in a server entry to import:
// `${workspaceFolder}` and `${userHome}` are paths, put in where they are
// known; `${input:ID}` is a value the editor asks for as the server starts,
// which import has not got, so an entry using one is refused in words.
// `${env:NAME}` is left for the entry's reading (cli/import_sources.cc),
// which passes a variable of the same name by name.
//
//   EditorVariables variables = {.workspace_folder = "/home/u/app", .user_home = "/home/u"};
//   std::string refusal = PutInEditorVariables(entry, variables);
#ifndef BRAVEBOT_CLI_IMPORT_VARIABLES_H_
#define BRAVEBOT_CLI_IMPORT_VARIABLES_H_

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace bravebot {

struct EditorVariables {
  // The folder the editor has open for this file; "" where it is not known.
  std::string workspace_folder;
  std::string user_home;  // "" where it is not known
  // Each input's description by its id, as "inputs" declares them.
  std::map<std::string, std::string> input_descriptions;
};

// The folder a settings file at `path` (absolute) belongs to, as VS Code
// and Cursor read `${workspaceFolder}` in it: the folder holding its
// .vscode or .cursor directory. "" elsewhere, and for ~/.cursor/mcp.json,
// which serves every folder.
std::string WorkspaceFolderOf(std::string_view path, std::string_view home);

// The inputs a VS Code mcp.json declares, for the words of a refusal.
std::map<std::string, std::string> InputDescriptions(const nlohmann::json& document);

// Puts the known paths into the strings of what `entry` runs or reaches
// (command, args, env, cwd, url, envFile); its headers are left as they
// are, refused as a whole. Returns why the entry cannot be imported (an
// input, or a folder not known), "" where it can.
std::string PutInEditorVariables(nlohmann::json& entry, const EditorVariables& variables);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_IMPORT_VARIABLES_H_
