// Opening the profile directory the way each kind of command needs it.
#ifndef BRAVEBOT_CLI_PROFILE_ACCESS_H_
#define BRAVEBOT_CLI_PROFILE_ACCESS_H_

#include <optional>

#include "base/result.h"
#include "cli/command.h"
#include "supervisor/profile_directory.h"

namespace bravebot {

// For a command that only reads: nothing when the machine names no profile
// directory or it does not exist yet, since then nothing is declared.
Result<std::optional<ProfileDirectory>> OpenProfileToRead(const CommandContext& context);

// For a command that writes: created when missing; refused when the machine
// names none.
Result<ProfileDirectory> OpenProfileToWrite(const CommandContext& context);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_PROFILE_ACCESS_H_
