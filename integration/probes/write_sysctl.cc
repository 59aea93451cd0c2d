// Tries to open one of the kernel's settings for writing (kernel.core_pattern,
// which names a program the kernel runs as root at every crash): must be
// refused. Only opened, never written.
#include <fcntl.h>

#include "integration/probes/probe.h"

int main() {
  const char* path = "/proc/sys/kernel/core_pattern";
  int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  return probe::Report(fd, probe::Words("open %s to write", path));
}
