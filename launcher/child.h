// What runs in the child between clone() and execve(), and nothing else does.
// Every function here is async-signal-safe: no allocation, no lock, no stdio,
// only system calls on data the parent prepared.
#ifndef BRAVEBOT_LAUNCHER_CHILD_H_
#define BRAVEBOT_LAUNCHER_CHILD_H_

#include <linux/filter.h>
#include <sys/types.h>

#include "launcher/capabilities.h"
#include "launcher/filesystem_view.h"
#include "launcher/init_process.h"
#include "launcher/isolation.h"
#include "launcher/verified_path.h"

namespace bravebot {

// The steps, in the order the child takes them; reported by number.
enum class ChildStep : int {
  kDeathSignal = 1,
  kDescriptors,
  kUserNamespace,
  kOwnProc,
  kFilesystemView,
  kWorkingDirectory,
  kSignals,
  kLimits,
  kCapabilities,
  kNoNewPrivileges,
  kSession,
  kInit,
  kLandlock,
  kSeccomp,
  kExec,
};

const char* ChildStepName(ChildStep step);

// What the child writes on the error pipe when a step fails.
struct ChildFailure {
  int step;
  int errno_value;
};

struct ChildPlan {
  int parent_pidfd;  // becomes readable once the parent has ended
  const char* program;
  char* const* argv;
  char* const* envp;
  VerifiedPathStep working_directory;
  int stdio_fds[3];  // to become 0, 1, 2; -1 keeps the one there
  int error_fd;
  int ruleset_fd;  // -1: no Landlock (only where the hostile battery proves the other layers)
  const struct sock_fprog* seccomp;
  const CapabilityPlan* capabilities;
  IsolationStep isolation;
  FilesystemViewStep view;
  CommandLineRegions wipe;  // the parent's command line, wiped by the namespace's init
};

// Takes every step and execs; on a failure, reports it and exits 127.
[[noreturn]] void RunChild(const ChildPlan& plan);

}  // namespace bravebot

#endif  // BRAVEBOT_LAUNCHER_CHILD_H_
