// Opening the profile directory the way each kind of command needs it.
#ifndef BRAVEBOT_CLI_PROFILE_ACCESS_H_
#define BRAVEBOT_CLI_PROFILE_ACCESS_H_

#include <optional>

#include "base/result.h"
#include "cli/command.h"
#include "supervisor/store/profile_directory.h"

namespace bravebot {

// For a command that only reads: nothing when the machine names no profile
// directory or it does not exist yet, since then nothing is declared.
Result<std::optional<ProfileDirectory>> OpenProfileToRead(const CommandContext& context);

// For a command that writes: created when missing; refused when the machine
// names none.
Result<ProfileDirectory> OpenProfileToWrite(const CommandContext& context);

// `location` with its links resolved, as it is or will be once created: a
// command checks a new declaration against it before making anything.
std::string ResolvedProfileLocation(const std::string& location, const FileSystemView& fs);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_PROFILE_ACCESS_H_
