// Tries to take a copy of its parent's standard input with pidfd_getfd (the
// supervisor's descriptors, without a path): must be refused.
#include <sys/syscall.h>

#include "integration/probes/probe.h"

int main() {
  pid_t parent = probe::TargetProcess();
  long pidfd = ::syscall(SYS_pidfd_open, parent, 0);
  if (pidfd < 0)
    return probe::Denied(probe::Words("pidfd_open(%d)", static_cast<int>(parent)), errno);
  return probe::Report(::syscall(SYS_pidfd_getfd, pidfd, 0, 0),
                       probe::Words("pidfd_getfd(pidfd of %d, 0)", static_cast<int>(parent)));
}
