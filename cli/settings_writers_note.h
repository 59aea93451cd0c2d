// What add and enable say, after asking for a server in a checkout's
// settings file, where a server may write that file: a session there reads it
// for its deny and ask rules alone, so the request counts for nothing.
#ifndef BRAVEBOT_CLI_SETTINGS_WRITERS_NOTE_H_
#define BRAVEBOT_CLI_SETTINGS_WRITERS_NOTE_H_

#include <string>

#include "cli/command.h"
#include "supervisor/store/profile_directory.h"
#include "supervisor/store/scope.h"

namespace bravebot {

void SayIfAServerMayWriteTheRequest(CommandContext& context, const ProfileDirectory& profile,
                                    Scope scope, const std::string& alias);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_SETTINGS_WRITERS_NOTE_H_
