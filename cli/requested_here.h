// Whether the settings files of the current directory ask for a server: the
// approve forms that answer a session's questions (approve ALIAS --tools,
// approve ALIAS:TOOL) answer them for a session opened here, so they refuse
// a server no session here would start.
#ifndef BRAVEBOT_CLI_REQUESTED_HERE_H_
#define BRAVEBOT_CLI_REQUESTED_HERE_H_

#include <string>

#include "base/result.h"
#include "cli/command.h"
#include "supervisor/store/profile_directory.h"

namespace bravebot {

// kRefused where none of the three files asks for `alias`, naming each file
// read and what to do; `command` is the command to run in the right
// directory ("bravebot-mcp approve weather --tools"). A file that cannot be
// read is said where no other file asks for it.
Status CheckRequestedHere(const CommandContext& context, const ProfileDirectory& profile,
                          const std::string& alias, const std::string& command);

// The refusal itself, for a session that found no such server.
Error NotRequestedHere(const CommandContext& context, const ProfileDirectory& profile,
                       const std::string& alias, const std::string& command);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_REQUESTED_HERE_H_
