// Tries io_uring_setup (a ring's operations bypass seccomp): must be refused
// (EPERM).
#include <linux/io_uring.h>
#include <sys/syscall.h>

#include "integration/probes/probe.h"

int main() {
  struct io_uring_params parameters = {};
  return probe::Report(::syscall(SYS_io_uring_setup, 4, &parameters), "io_uring_setup(4)");
}
