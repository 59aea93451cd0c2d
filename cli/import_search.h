// Where bravebot-mcp import looks when it is named no file: the settings
// files Claude Code, Claude Desktop, Cursor, VS Code, Codex and Windsurf
// keep, in your home (HOME as the command's environment names it) and in
// the working directory. Those there are listed with how many servers each
// declares; at a terminal you are asked which to import.
//
//   Result<std::optional<std::string>> path = ChooseUsualFile(context);
//   // kUsage where none is there, or nobody is at the terminal to choose
#ifndef BRAVEBOT_CLI_IMPORT_SEARCH_H_
#define BRAVEBOT_CLI_IMPORT_SEARCH_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "cli/command.h"

namespace bravebot {

struct UsualSettingsFile {
  std::string client;  // "Claude Code"
  std::string path;    // absolute
};

// The usual files, each once, in the order they are listed: those in `home`
// only where it is an absolute path, those in `cwd` as they are.
std::vector<UsualSettingsFile> UsualSettingsFiles(std::string_view home, std::string_view cwd);

// HOME as the command's environment names it, normalized, its links
// resolved: "" where it names no absolute path. The user database is not
// asked, so a test's HOME is all that is searched.
std::string HomeToSearch(const CommandContext& context);

// Lists the usual files there (in `context.out`) and, at a terminal, asks
// which to import: its path, or nothing where none was chosen. kUsage,
// with nothing imported, where none is there or none can be asked for.
Result<std::optional<std::string>> ChooseUsualFile(CommandContext& context);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_IMPORT_SEARCH_H_
