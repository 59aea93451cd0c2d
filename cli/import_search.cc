#include "cli/import_search.h"

#include <algorithm>
#include <charconv>
#include <istream>
#include <ostream>

#include "base/files.h"
#include "base/shown_text.h"
#include "cli/import_sources.h"
#include "cli/typed_ahead.h"
#include "confine/paths.h"
#include "supervisor/store/file_bounds.h"

namespace bravebot {
namespace {

// Wide enough for the longest client's name, Claude Desktop.
constexpr std::size_t kClientColumn = 14;

constexpr const char* kNameOne = "name the one to import: bravebot-mcp import FILE";

// What a found file declares, as its row says it: "2 MCP servers", or why
// it cannot be read.
std::string WhatItDeclares(const std::string& path, const std::string& text,
                           const std::string& home) {
  Result<std::vector<ImportEntry>> entries = ReadServersToImport(text, path, home);
  if (!entries) return "cannot be read: it " + entries.error().message();
  return std::to_string(entries->size()) + (entries->size() == 1 ? " MCP server" : " MCP servers");
}

// The number typed, where it is one of 1..count.
std::optional<std::size_t> ChosenNumber(std::string typed, std::size_t count) {
  typed.erase(0, typed.find_first_not_of(" \t"));
  typed.erase(typed.find_last_not_of(" \t\r") + 1);
  std::size_t number = 0;
  auto [end, error] = std::from_chars(typed.data(), typed.data() + typed.size(), number);
  if (error != std::errc() || end != typed.data() + typed.size()) return std::nullopt;
  if (number < 1 || number > count) return std::nullopt;
  return number;
}

}  // namespace

std::vector<UsualSettingsFile> UsualSettingsFiles(std::string_view home, std::string_view cwd) {
  const bool known_home = home.starts_with('/');
  std::vector<UsualSettingsFile> files;
  auto add = [&](const char* client, bool in_home, std::string_view relative) {
    if (in_home && !known_home) return;
    std::string path = AbsolutePath(relative, in_home ? home : cwd);
    auto same = [&](const UsualSettingsFile& file) { return file.path == path; };
    if (std::none_of(files.begin(), files.end(), same)) files.push_back({client, std::move(path)});
  };
  add("Claude Code", true, ".claude.json");
  add("Claude Code", false, ".mcp.json");
  add("Claude Desktop", true, ".config/Claude/claude_desktop_config.json");
  add("Claude Desktop", true, "Library/Application Support/Claude/claude_desktop_config.json");
  add("Cursor", true, ".cursor/mcp.json");
  add("Cursor", false, ".cursor/mcp.json");
  add("VS Code", false, ".vscode/mcp.json");
  add("VS Code", true, ".config/Code/User/mcp.json");
  add("VS Code", true, "Library/Application Support/Code/User/mcp.json");
  add("Codex", true, ".codex/config.toml");
  add("Windsurf", true, ".codeium/windsurf/mcp_config.json");
  return files;
}

std::string HomeToSearch(const CommandContext& context) {
  const char* home = context.getenv("HOME");
  if (home == nullptr || *home != '/') return "";
  // Normalized and its links resolved: ~/.cursor is then told from a
  // project's .cursor however HOME is spelled.
  const std::string normalized = AbsolutePath(home, "/");
  return context.fs.ResolvedPath(normalized).value_or(normalized);
}

Result<std::optional<std::string>> ChooseUsualFile(CommandContext& context) {
  const std::string home = HomeToSearch(context);
  std::vector<UsualSettingsFile> found;
  std::string rows;
  for (UsualSettingsFile& file : UsualSettingsFiles(home, context.cwd)) {
    Result<std::optional<std::string>> text = ReadWholeFile(file.path, kImportFileBound);
    if (text && !*text) continue;  // not there
    const std::string declares = text ? WhatItDeclares(file.path, **text, home)
                                      : "cannot be read: it " + text.error().message();
    found.push_back(std::move(file));
    const std::string& client = found.back().client;
    rows += "  " + std::to_string(found.size()) + "  " + client +
            std::string(kClientColumn - std::min(kClientColumn, client.size()), ' ') + "  " +
            EscapeControlCharacters(found.back().path + "  " + declares) + "\n";
  }
  if (found.empty()) {
    return Error(ErrorCode::kUsage,
                 "found none of the usual settings files (Claude Code's ~/.claude.json and "
                 "./.mcp.json, Claude Desktop's, Cursor's, VS Code's, Codex's and Windsurf's): " +
                     std::string(kNameOne));
  }
  context.out << "The settings files of other clients found here:\n\n" << rows;
  if (!context.at_terminal) return Error(ErrorCode::kUsage, kNameOne);
  DiscardTypedAhead(context);
  context.out << "\nImport which? [1-" << found.size() << ", Enter for none] " << std::flush;
  std::string answer;
  if (!std::getline(context.in, answer)) {
    context.out << "\n";  // the end of the input echoes no line break
    return std::optional<std::string>();
  }
  std::optional<std::size_t> chosen = ChosenNumber(answer, found.size());
  if (!chosen) return std::optional<std::string>();
  return std::optional<std::string>(found[*chosen - 1].path);
}

}  // namespace bravebot
