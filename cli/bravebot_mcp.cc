// bravebot-mcp: picks the command named by the first word.
#include <algorithm>
#include <map>
#include <optional>
#include <ostream>

#include "base/version.h"
#include "cli/closest_word.h"
#include "cli/command.h"

namespace bravebot {
namespace {

constexpr char kUsage[] = R"(usage: bravebot-mcp COMMAND [ARGS...]

Declares the MCP servers a bravebot session may start.

  add      declare a server: bravebot-mcp add ALIAS -- PROGRAM [ARGS...]
  approve  ask, at a terminal, whether to approve what a server runs
  disable  take a server out of the settings files that ask for it
  doctor   list's rows, and every settings key that tries to declare a server
  enable   ask for a server in a settings file, approving it first at a terminal
  forget   drop the standing answers recorded for a project
  get      show one declaration in full, with its whole digest
  list     list every declaration
  reach    show what a server may reach, and prove it with --probe
  remove   remove a declaration

bravebot-mcp COMMAND --help says more about each, and bravebot-mcp --version
says which bravebot-mcp this is.
)";

const std::map<std::string, CommandFunction>& Commands() {
  static const std::map<std::string, CommandFunction> commands = {
      {"add", RunAdd},       {"approve", RunApprove}, {"disable", RunDisable},
      {"doctor", RunDoctor}, {"enable", RunEnable},   {"forget", RunForget},
      {"get", RunGet},       {"list", RunList},       {"reach", RunReach},
      {"remove", RunRemove}};
  return commands;
}

}  // namespace

int RunBravebotMcp(const std::vector<std::string>& words, CommandContext& context) {
  if (words.empty()) {
    context.err << kUsage;
    return kExitUsage;
  }
  if (words[0] == "-h" || words[0] == "--help" || words[0] == "help") {
    context.out << kUsage;
    return kExitOk;
  }
  if (words[0] == "--version" || words[0] == "-V") {
    context.out << VersionLine("bravebot-mcp");
    return kExitOk;
  }
  auto command = Commands().find(words[0]);
  if (command == Commands().end()) {
    // Named only when it reads as a command: a key pasted first must not come back.
    const std::string& word = words[0];
    bool reads_as_command = !word.empty() && word.size() <= 20 &&
                            std::all_of(word.begin(), word.end(),
                                        [](char c) { return (c >= 'a' && c <= 'z') || c == '-'; });
    std::vector<std::string> names;
    for (const auto& [name, function] : Commands()) names.push_back(name);
    std::optional<std::string> meant = reads_as_command ? ClosestWord(word, names) : std::nullopt;
    context.err << "bravebot-mcp: there is no command "
                << (reads_as_command ? word : std::string("of that name")) << "; "
                << (meant ? "did you mean " + *meant + "? " : std::string())
                << "bravebot-mcp --help lists them\n";
    return kExitUsage;
  }
  return command->second({words.begin() + 1, words.end()}, context);
}

}  // namespace bravebot
