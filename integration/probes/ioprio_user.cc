// Tries to set the I/O priority of every process of its user to IOPRIO, with
// ioprio_set(IOPRIO_WHO_USER): must be refused (seccomp). glibc has no
// wrapper for it, and reads a `who` of 0 as uid 0, not as the caller's.
#include <linux/ioprio.h>
#include <sys/syscall.h>

#include "integration/probes/probe.h"

int main() {
  long ioprio = std::strtol(probe::Need("IOPRIO"), nullptr, 10);
  unsigned uid = ::getuid();
  return probe::Report(::syscall(SYS_ioprio_set, IOPRIO_WHO_USER, uid, ioprio),
                       probe::Words("ioprio_set(IOPRIO_WHO_USER, %u, %ld)", uid, ioprio));
}
