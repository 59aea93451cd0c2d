// What bravebot-mcp import reads: the MCP servers another client declares,
// each turned into the words `bravebot-mcp add` would be given for it, or
// the reason it cannot be. Without I/O: the file's text in, entries out.
//
//   - A Claude-style .mcp.json or claude_desktop_config.json, a Cursor or
//     Windsurf mcp.json, and a Clarvis settings.json: the `mcpServers`
//     object.
//   - Claude Code's ~/.claude.json (a JSON object with `projects`): its
//     `mcpServers`, then each project's, each saying which project it is of.
//   - VS Code's mcp.json (a JSON object with `servers` and no
//     `mcpServers`): its `servers`, with its `inputs` for the words of a
//     refusal, and the editor's variables (cli/import_variables.h).
//   - A Codex config.toml (a path ending in .toml): its `[mcp_servers.NAME]`
//     tables, read with toml++.
//
// An entry's variables: a value is stored (-e NAME=value); `${NAME}` or
// `${env:NAME}`, the variable's own name, is passed by name from the
// environment (-e NAME), as are the names of Clarvis's and Codex's
// `env_vars`. `cwd` becomes --dir, `url` (Windsurf's `serverUrl`) --http.
// What bravebot-mcp cannot carry over refuses the entry, saying why:
// headers (a token in a header is a stored value that cannot be sent yet),
// `${...}` anywhere it would have to be expanded, an input the editor asks
// for, an envFile, an SSE server, one turned off there. Each entry is
// given its alias (cli/import_aliases.h).
//
//   Result<std::vector<ImportEntry>> entries = ReadServersToImport(text, path, home);
//   for (const ImportEntry& entry : *entries) {
//     if (!entry.refusal.empty()) Say(entry.name + " was not imported: " + entry.refusal);
//     else if (!entry.same_as_earlier) Add(entry.alias, entry.add_words);
//   }
#ifndef BRAVEBOT_CLI_IMPORT_SOURCES_H_
#define BRAVEBOT_CLI_IMPORT_SOURCES_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace bravebot {

struct ImportEntry {
  std::string name;  // as the file names it
  // Where in the file it is, for the words that name it: "the project
  // /home/u/app" for one of ~/.claude.json's projects; "" for the file's own.
  std::string origin;
  // What it is declared as: its name where that is an alias, or one made
  // from it; "" where it is refused.
  std::string alias;
  // The same server as an earlier entry of the same alias (a server of
  // ~/.claude.json that two projects declare): declared once, as that one.
  bool same_as_earlier = false;
  // What follows the alias in `bravebot-mcp add ALIAS ...`.
  std::vector<std::string> add_words;
  std::string refusal;             // why it cannot be declared; "" where it can
  std::vector<std::string> notes;  // what of it is not carried over, each a sentence
};

// More than any client's settings hold: each server declared is a change of
// mcp.json of its own, under its lock, so a file of thousands would take
// minutes and leave an mcp.json every later command reads whole.
inline constexpr std::size_t kMaxImportedServers = 256;

// The entries of the file at `path` (absolute) holding `text`, in the order
// of their names (~/.claude.json's own, then each project's, projects in the
// order of their paths); kRefused for more than kMaxImportedServers.
// kCorrupt where the file cannot be read as what its name says, in words
// that never quote it (it may hold keys); a file without servers gives none.
// `home`, where it is known, is put in for VS Code's `${userHome}`.
Result<std::vector<ImportEntry>> ReadServersToImport(std::string_view text, std::string_view path,
                                                     std::string_view home = "");

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_IMPORT_SOURCES_H_
