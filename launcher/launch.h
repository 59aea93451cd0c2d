// Starting a program confined: everything it needs is prepared before clone()
// — the argv and environment arrays, the Landlock ruleset with its rules
// added, the seccomp program, the capability plan, the namespaces and the
// directories it may write, found without following links — and the child
// only makes system calls on it, in the order that leaves each step able to
// run, seccomp last, then execve. With a PID namespace the child executes
// bravebot-mcp-init, the namespace's first process, which takes the last
// steps (Landlock, seccomp, execve) in the server's own process. A step that
// fails is reported back through a pipe that closes on the server's exec as
// {step, errno}, and the parent returns it as an error naming the step; a
// server never runs with less confinement than asked.
//
//   LaunchRequest request = ...;
//   Result<LaunchedChild> child = Launch(request);
//   write(child->stdin_fd.get(), ...);
#ifndef BRAVEBOT_LAUNCHER_LAUNCH_H_
#define BRAVEBOT_LAUNCHER_LAUNCH_H_

#include <sys/types.h>

#include <string>
#include <vector>

#include "base/result.h"
#include "base/unique_fd.h"
#include "launcher/capabilities.h"
#include "launcher/filesystem_view.h"
#include "launcher/isolation.h"
#include "launcher/socket_mask.h"
#include "launcher/verified_path.h"
#include "profiles/seccomp_filter.h"

namespace bravebot {

enum class ChildStdio {
  kPipes,    // the parent gets the other ends of three new pipes
  kInherit,  // the child keeps the parent's 0, 1 and 2
};

struct LaunchRequest {
  std::string program;                   // absolute path, executed as it is
  std::vector<std::string> argv;         // argv[0] included
  std::vector<std::string> environment;  // NAME=value, exactly what it gets
  VerifiedPath working_directory;
  // Every rule added. Invalid only with `without_landlock`, which the hostile
  // battery sets to prove the other layers alone; nothing a person runs does.
  UniqueFd landlock_ruleset;
  bool without_landlock = false;
  SeccompProgram seccomp;
  CapabilityPlan capabilities;
  IsolationPlan isolation;
  // Below Landlock ABI 9, in its mount namespace: empty where others'
  // sockets usually are, but for its reach's paths (profiles/
  // socket_mask_plan.h).
  std::vector<PlaceToHide> hidden_places;
  FilesystemViewPlan view;
  ChildStdio stdio = ChildStdio::kPipes;
};

struct LaunchedChild {
  // The first process: its PID namespace's init, or the server itself where
  // there is none. It leads a process group of its own.
  pid_t pid = -1;
  // True when the server has a PID namespace, so that ending `pid` ends it and
  // everything it started; false where a subreaper must find them.
  bool in_pid_namespace = false;
  UniqueFd stdin_fd;  // the parent's ends, with ChildStdio::kPipes
  UniqueFd stdout_fd;
  UniqueFd stderr_fd;
  // Under bubblewrap only: a pidfd of the server itself, bwrap's child, which
  // a signal other than SIGKILL is sent to (bwrap would end on it and kill
  // the server unwarned), and the pipe bwrap reports on, open while it runs.
  UniqueFd server_pidfd;
  UniqueFd status_fd;
};

// bravebot-mcp-init, beside this program, opened once and kept (O_PATH):
// every start in a PID namespace executes it from this descriptor, so a
// program that opens it as it starts keeps executing that one even if the
// installed file is replaced while it runs (an upgrade during a session).
// -1 where it is not there. Launch opens it at its first call otherwise.
int InitProgramFd();

// Starts `request` confined. Returns once the program is executing (the error
// pipe closed on exec), or an error naming the step that failed. Without a
// PID namespace, makes the calling process a subreaper, so that what the
// server leaves behind becomes its child.
//
// Call it from a thread that lives as long as the server: the child's death
// signal fires when the thread that started it ends, not only the process.
Result<LaunchedChild> Launch(LaunchRequest& request);

}  // namespace bravebot

#endif  // BRAVEBOT_LAUNCHER_LAUNCH_H_
