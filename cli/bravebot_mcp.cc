// bravebot-mcp: the table of its commands, and the command named by the
// first word. What every command shares is done here once: the list of
// commands, the refusal of a command that writes in an incognito session,
// and reading the words, reporting a mistake in them and --help.
#include <algorithm>
#include <optional>
#include <ostream>

#include "base/version.h"
#include "cli/closest_word.h"
#include "cli/command.h"

namespace bravebot {
namespace {

// In the order --help lists them.
const CommandSpec* const kCommands[] = {
    &kAddCommand,    &kApproveCommand, &kAuditCommand,  &kDisableCommand,
    &kDoctorCommand, &kEnableCommand,  &kForgetCommand, &kGatewayCommand,
    &kGetCommand,    &kImportCommand,  &kListCommand,   &kLoginCommand,
    &kLogoutCommand, &kReachCommand,   &kRemoveCommand, &kSessionCommand,
};

std::string Usage() {
  std::string usage =
      "usage: bravebot-mcp COMMAND [ARGS...]\n\n"
      "Declares the MCP servers a bravebot session may start.\n\n";
  for (const CommandSpec* command : kCommands) {
    std::string name(command->name);
    usage += "  " + name + std::string(9 - name.size(), ' ') + std::string(command->summary) + "\n";
  }
  return usage +
         "\nbravebot-mcp COMMAND --help says more about each, and bravebot-mcp --version\n"
         "says which bravebot-mcp this is.\n";
}

const CommandSpec* FindCommand(std::string_view name) {
  for (const CommandSpec* command : kCommands) {
    if (command->name == name) return command;
  }
  return nullptr;
}

// -h or --help among a command's own words (before a bare --, after which
// every word is a server's).
bool AsksForHelp(const std::vector<std::string>& words) {
  for (const std::string& word : words) {
    if (word == "--") return false;
    if (word == "-h" || word == "--help") return true;
  }
  return false;
}

int NoSuchCommand(const std::string& word, CommandContext& context) {
  // Named only when it reads as a command: a key pasted first must not come back.
  bool reads_as_command = !word.empty() && word.size() <= 20 &&
                          std::all_of(word.begin(), word.end(),
                                      [](char c) { return (c >= 'a' && c <= 'z') || c == '-'; });
  std::vector<std::string> names;
  for (const CommandSpec* command : kCommands) names.emplace_back(command->name);
  std::optional<std::string> meant = reads_as_command ? ClosestWord(word, names) : std::nullopt;
  context.err << "bravebot-mcp: there is no command "
              << (reads_as_command ? word : std::string("of that name")) << "; "
              << (meant ? "did you mean " + *meant + "? " : std::string())
              << "bravebot-mcp --help lists them\n";
  return kExitUsage;
}

}  // namespace

int RunBravebotMcp(const std::vector<std::string>& words, CommandContext& context) {
  if (words.empty()) {
    context.err << Usage();
    return kExitUsage;
  }
  if (words[0] == "-h" || words[0] == "--help" || words[0] == "help") {
    context.out << Usage();
    return kExitOk;
  }
  if (words[0] == "--version" || words[0] == "-V") {
    context.out << VersionLine("bravebot-mcp");
    return kExitOk;
  }
  const CommandSpec* command = FindCommand(words[0]);
  if (command == nullptr) return NoSuchCommand(words[0], context);
  const std::vector<std::string> rest(words.begin() + 1, words.end());
  // Refused before a word is read, so nothing typed can make it write.
  if (!command->writes.empty() && IsIncognito(context) && !AsksForHelp(rest)) {
    return Report(context, std::string(command->name),
                  Error(ErrorCode::kRefused,
                        "an incognito session writes nothing under the profile directory, so "
                        "nothing can be " +
                            std::string(command->writes) + " in one"));
  }
  if (command->reads_own_words != nullptr) return command->reads_own_words(rest, context);
  Result<SimpleOptions> options = ParseSimpleOptions(command->options(), rest);
  if (!options) return Report(context, std::string(command->name), options.error());
  if (options->help) {
    context.out << options->help_text;
    return kExitOk;
  }
  return command->body(*options, context);
}

}  // namespace bravebot
