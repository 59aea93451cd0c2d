// What add says where the reach will not give what a new declaration's
// program needs to run: the interpreter its #! line names (a Python virtual
// environment made under /tmp), or a PATH entry. The server would fail at
// its first start, far from the command that caused it; said here, with
// what to do instead.
#ifndef BRAVEBOT_CLI_PROGRAM_REACH_NOTE_H_
#define BRAVEBOT_CLI_PROGRAM_REACH_NOTE_H_

#include "cli/command.h"
#include "confine/declaration.h"
#include "supervisor/store/profile_directory.h"

namespace bravebot {

void WarnWhatItsProgramIsNotGiven(CommandContext& context, const ProfileDirectory& profile,
                                  const Declaration& declaration);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_PROGRAM_REACH_NOTE_H_
