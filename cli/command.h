// What every bravebot-mcp command is handed, and how it reports. Commands
// write to the streams given, never to std::cout directly, so tests can read
// exactly what a person would see.
#ifndef BRAVEBOT_CLI_COMMAND_H_
#define BRAVEBOT_CLI_COMMAND_H_

#include <iosfwd>
#include <istream>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "cli/simple_options.h"
#include "confine/filesystem.h"
#include "supervisor/store/profile_directory.h"

namespace bravebot {

// Exit statuses: 0 success, 1 something was refused or failed, 2 the words
// given do not form a command.
enum ExitStatus : int { kExitOk = 0, kExitFailed = 1, kExitUsage = 2 };

struct CommandContext {
  std::istream& in;  // where a question's answer is read
  std::ostream& out;
  std::ostream& err;
  EnvironmentLookup getenv;
  std::string cwd;
  bool at_terminal = false;  // standard input and output are both terminals
  const FileSystemView& fs;

  // The profile directory's path, or nothing when the machine names none.
  std::optional<std::string> ProfileLocation() const { return LocateProfileDirectory(getenv, cwd); }

  // The person's home, as HOME names it, or else as the user database does;
  // "" when neither names an absolute path.
  std::string UserHome() const;
};

// Writes "bravebot-mcp COMMAND: message" to err and returns the exit status
// the error's kind calls for.
int Report(CommandContext& context, const std::string& command, const Error& error);

// Serializes JSON for a script, replacing bytes that are not UTF-8 rather than
// failing on them.
std::string JsonText(const nlohmann::json& value);

// True where the front end's incognito session runs us (BRAVEBOT_INCOGNITO=1),
// which writes nothing under the profile directory.
bool IsIncognito(const CommandContext& context);

// A command that reads its own words: add, whose words after -- are a
// server's and are never read as options.
using CommandFunction = int (*)(const std::vector<std::string>& words, CommandContext& context);
// The body of a command whose words the table reads, as its options say.
using CommandBody = int (*)(const SimpleOptions& options, CommandContext& context);

// One command of bravebot-mcp: what the table in bravebot_mcp.cc knows of
// it. The table, not the body, prints the list of commands, refuses a
// command that writes in an incognito session, and reads the words, reports
// a mistake in them and prints --help, for every command but add.
struct CommandSpec {
  std::string_view name;     // "approve"
  std::string_view summary;  // its line in bravebot-mcp --help
  // What an incognito session cannot have done ("approved"), for a command
  // that writes under the profile directory; empty for one that only reads.
  std::string_view writes;
  SimpleCommandSpec (*options)() = nullptr;  // what it takes
  CommandBody body = nullptr;
  CommandFunction reads_own_words = nullptr;  // add, instead of the two above
};

// The commands, each defined in its own *_command.cc.
extern const CommandSpec kAddCommand, kApproveCommand, kAuditCommand, kDisableCommand,
    kDoctorCommand, kEnableCommand, kForgetCommand, kGetCommand, kImportCommand, kListCommand,
    kLoginCommand, kLogoutCommand, kReachCommand, kGatewayCommand, kRemoveCommand, kSessionCommand;

// list, its refusals starting "bravebot-mcp COMMAND:": doctor prints list's
// rows, and what went wrong in them is doctor's to say.
// `server_writable_settings`, where given, is set to the number of the
// checkout's settings files a server may write (which doctor fails on).
int RunListReportingAs(const std::string& command, const SimpleOptions& options,
                       CommandContext& context, size_t* server_writable_settings = nullptr);

// Runs `bravebot-mcp WORDS...` (the words after the program's name).
int RunBravebotMcp(const std::vector<std::string>& words, CommandContext& context);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_COMMAND_H_
