// What add and enable say, after asking for a server, when the administrator
// file refuses it: it is asked for all the same, and will not start.
#ifndef BRAVEBOT_CLI_ADMINISTRATOR_NOTE_H_
#define BRAVEBOT_CLI_ADMINISTRATOR_NOTE_H_

#include "cli/command.h"
#include "confine/declaration.h"

namespace bravebot {

void SayIfTheAdministratorRefuses(CommandContext& context, const Declaration& declaration);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_ADMINISTRATOR_NOTE_H_
