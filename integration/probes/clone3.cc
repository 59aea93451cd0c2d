// Tries clone3 with CLONE_NEWUSER (its flags are in memory, out of seccomp's
// sight): must be refused with ENOSYS, so that libc falls back to clone.
#include <linux/sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "integration/probes/probe.h"

int main() {
  struct clone_args arguments = {};
  arguments.flags = CLONE_NEWUSER;
  arguments.exit_signal = SIGCHLD;
  long child = ::syscall(SYS_clone3, &arguments, sizeof(arguments));
  if (child == 0) ::_exit(0);
  if (child > 0) ::waitpid(static_cast<pid_t>(child), nullptr, 0);
  return probe::Report(child, "clone3(CLONE_NEWUSER)");
}
