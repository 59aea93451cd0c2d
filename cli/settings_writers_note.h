// What add and enable say, after asking for a server in a checkout's
// settings file, where a server may write that file: a session there reads it
// for its deny and ask rules alone, so the request counts for nothing.
#ifndef BRAVEBOT_CLI_SETTINGS_WRITERS_NOTE_H_
#define BRAVEBOT_CLI_SETTINGS_WRITERS_NOTE_H_

#include <optional>
#include <string>

#include "cli/command.h"
#include "confine/declaration.h"
#include "supervisor/store/profile_directory.h"
#include "supervisor/store/scope.h"

namespace bravebot {

void SayIfAServerMayWriteTheRequest(CommandContext& context, const ProfileDirectory& profile,
                                    Scope scope, const std::string& alias);

// What add (replacing a declaration) and remove say where the --dir of
// `before` held a checkout's .bravebot that no declared server may write
// now: its settings files are read whole again, whatever a server wrote in
// them meanwhile. `after` is what declares the alias now (nothing once it
// is removed).
void SayWhatAServerMayHaveLeft(CommandContext& context, const ProfileDirectory& profile,
                               const std::optional<Declaration>& before,
                               const std::optional<Declaration>& after);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_SETTINGS_WRITERS_NOTE_H_
