// Starting a server under the bubblewrap backend: /usr/bin/bwrap is the
// first process, in a process group of its own, with a death signal armed
// and --die-with-parent, so that ending it ends the sandbox and everything
// in it. Before clone(), the parent opens each bind's path without following
// links (a link planted after the reach was computed is refused, never
// bound), writes bwrap's arguments and the seccomp filter into sealed memory
// files, and bwrap is handed the descriptors; nothing of the environment is
// on bwrap's command line.
//
//   BubblewrapLaunchRequest request{plan, seccomp, ChildStdio::kPipes};
//   Result<LaunchedChild> child = LaunchInBubblewrap(request);
#ifndef BRAVEBOT_LAUNCHER_BUBBLEWRAP_LAUNCH_H_
#define BRAVEBOT_LAUNCHER_BUBBLEWRAP_LAUNCH_H_

#include "base/result.h"
#include "launcher/launch.h"
#include "profiles/bubblewrap_plan.h"
#include "profiles/seccomp_filter.h"

namespace bravebot {

struct BubblewrapLaunchRequest {
  BubblewrapPlan plan;
  SeccompProgram seccomp;
  ChildStdio stdio = ChildStdio::kPipes;
};

// Starts `request` under bwrap. Returns once bwrap is executing; bwrap
// then sets the sandbox up and, where a step of it fails, says so on the
// server's standard error ("bwrap: ...") and exits 1, never running the
// server with less. The child is `in_pid_namespace`: ending it ends all.
//
// Call it from a thread that lives as long as the server: bwrap's death
// signal fires when the thread that started it ends.
Result<LaunchedChild> LaunchInBubblewrap(const BubblewrapLaunchRequest& request);

}  // namespace bravebot

#endif  // BRAVEBOT_LAUNCHER_BUBBLEWRAP_LAUNCH_H_
