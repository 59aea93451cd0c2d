// How a server's reach is drawn for a person, and as JSON for a script. A
// value of the environment is never drawn, only its name and why it is there.
#ifndef BRAVEBOT_CLI_REACH_VIEW_H_
#define BRAVEBOT_CLI_REACH_VIEW_H_

#include <nlohmann/json.hpp>
#include <string>

#include "confine/declaration.h"
#include "supervisor/servers/confined_server.h"

namespace bravebot {

std::string DisplayReach(const Declaration& declaration, const Confinement& confinement);

nlohmann::json ReachJson(const Declaration& declaration, const Confinement& confinement);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_REACH_VIEW_H_
