// bravebot-mcp reach --probe: runs bravebot-mcp-probe under exactly the
// confinement a server gets (its reach, the same plan, the same launcher, the
// probe itself added to read and run), and checks each attempt of the probe
// against what the reach and this kernel say should happen.
#ifndef BRAVEBOT_CLI_REACH_PROBE_H_
#define BRAVEBOT_CLI_REACH_PROBE_H_

#include "cli/command.h"
#include "confine/declaration.h"
#include "supervisor/store/profile_directory.h"

namespace bravebot {

// Prints each attempt, allowed or denied, and whether that is what the reach
// says; exits 1 when any is not.
int RunReachProbe(const Declaration& declaration, const ProfileDirectory& profile, bool json,
                  CommandContext& context);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_REACH_PROBE_H_
