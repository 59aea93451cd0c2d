// bravebot-mcp: picks the command named by the first word.
#include <map>
#include <ostream>

#include "cli/command.h"
#include "cli/declaration_view.h"

namespace bravebot {
namespace {

constexpr char kUsage[] = R"(usage: bravebot-mcp COMMAND [ARGS...]

Declares the MCP servers a bravebot session may start.

  add      declare a server: bravebot-mcp add ALIAS -- PROGRAM [ARGS...]
  get      show one declaration in full, with its whole digest
  list     list every declaration
  remove   remove a declaration

bravebot-mcp COMMAND --help says more about each.
)";

const std::map<std::string, CommandFunction>& Commands() {
  static const std::map<std::string, CommandFunction> commands = {
      {"add", RunAdd}, {"get", RunGet}, {"list", RunList}, {"remove", RunRemove}};
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
  auto command = Commands().find(words[0]);
  if (command == Commands().end()) {
    context.err << "bravebot-mcp: there is no command " << DisplayWord(words[0].substr(0, 40))
                << "; bravebot-mcp --help lists them\n";
    return kExitUsage;
  }
  return command->second({words.begin() + 1, words.end()}, context);
}

}  // namespace bravebot
