// Tries the raw clone system call with CLONE_NEWUSER: must be refused (EPERM).
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "integration/probes/probe.h"

int main() {
  long child = ::syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, nullptr, nullptr, nullptr, 0);
  if (child == 0) ::_exit(0);
  if (child > 0) ::waitpid(static_cast<pid_t>(child), nullptr, 0);
  return probe::Report(child, "clone(CLONE_NEWUSER)");
}
