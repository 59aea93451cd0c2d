// What runs in the child between clone() and execve(), and nothing else does.
// The child shares its parent's memory (CLONE_VM | CLONE_VFORK: nothing is
// copied, and the parent's thread waits until the child executes), so every
// function here is async-signal-safe and writes nothing of the parent's: no
// allocation, no lock, no stdio, only system calls on data the parent
// prepared, on a stack of its own. Two writes remain, both to the waiting
// thread's own state: errno, and the cancellation flags glibc's wrappers of
// close, open, write and poll set and clear around the call (nothing cancels
// a launching thread).
#ifndef BRAVEBOT_LAUNCHER_CHILD_H_
#define BRAVEBOT_LAUNCHER_CHILD_H_

#include <linux/filter.h>
#include <sys/types.h>

#include "launcher/capabilities.h"
#include "launcher/child_report.h"
#include "launcher/filesystem_view.h"
#include "launcher/isolation.h"
#include "launcher/socket_mask.h"
#include "launcher/verified_path.h"

namespace bravebot {

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
  SocketMaskStep socket_mask;
  FilesystemViewStep view;
  // With a PID namespace: bravebot-mcp-init (an O_PATH descriptor), its
  // arguments (the Landlock flag, the program, then argv), and the filter
  // and the environment in sealed memory files for it.
  int init_program_fd;
  char* const* init_argv;
  int seccomp_fd;
  int environment_fd;
};

// Takes every step and execs the server, or bravebot-mcp-init, which starts
// it; on a failure, reports it and exits 127. Returns nothing: its int is
// clone()'s.
int RunChild(void* plan);

}  // namespace bravebot

#endif  // BRAVEBOT_LAUNCHER_CHILD_H_
