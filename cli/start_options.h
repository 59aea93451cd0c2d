// How a command starts a server on this machine: the profile directory, the
// person's home, the environment and the filesystem it was run with.
#ifndef BRAVEBOT_CLI_START_OPTIONS_H_
#define BRAVEBOT_CLI_START_OPTIONS_H_

#include "cli/command.h"
#include "supervisor/servers/confined_server.h"

namespace bravebot {

ServerStartOptions StartOptionsFor(const CommandContext& context, const ProfileDirectory& profile);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_START_OPTIONS_H_
