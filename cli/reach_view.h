// How a server's reach is drawn for a person, and as JSON for a script. A
// value of the environment is never drawn, only its name and why it is there.
#ifndef BRAVEBOT_CLI_REACH_VIEW_H_
#define BRAVEBOT_CLI_REACH_VIEW_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "confine/declaration.h"
#include "supervisor/servers/confined_server.h"

namespace bravebot {

// A run's temporary directory as reach and audit name it: named, not made,
// since it exists only while the run lasts.
inline constexpr char kRunDirectoryShown[] = "/tmp/bravebot-run-XXXXXX";

// Long runs of system paths (the /etc entries) are one line each unless
// `verbose`.
std::string DisplayReach(const Declaration& declaration, const Confinement& confinement,
                         bool verbose = false);

// Which backend enforces it, and what that backend cannot keep: a line, then
// a line for each promise it cannot keep.
std::string Enforcement(const Confinement& confinement);
// What the chosen backend cannot keep of the reach, each in words.
const std::vector<std::string>& UnkeptPromises(const Confinement& confinement);

nlohmann::json ReachJson(const Declaration& declaration, const Confinement& confinement);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_REACH_VIEW_H_
