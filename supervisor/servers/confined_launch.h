// A confinement made and its server launched under it: our own launcher's
// namespaces, read-only view, Landlock and seccomp, or bwrap's with our
// seccomp filter.
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_CONFINED_LAUNCH_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_CONFINED_LAUNCH_H_

#include <string>

#include "base/result.h"
#include "confine/reach.h"
#include "launcher/launch.h"
#include "supervisor/servers/server_confinement.h"
#include "supervisor/servers/server_start_options.h"

namespace bravebot {

struct LaunchedConfinement {
  Confinement confinement;
  LaunchedChild child;
};

// `reach` confined on a kernel that offers `kernel` (ConfineServerReach),
// and launched so. Refused, naming `alias`, where no backend can confine it.
Result<LaunchedConfinement> ConfineAndLaunch(Reach reach, const ServerStartOptions& options,
                                             const std::string& alias, const KernelFacts& kernel);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_CONFINED_LAUNCH_H_
