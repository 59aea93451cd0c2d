// Tries to open its parent's /proc/<pid>/mem (everything the supervisor
// holds): must be refused.
#include "integration/probes/probe.h"

int main() {
  const char* target = probe::Words("/proc/%d/mem", static_cast<int>(probe::TargetProcess()));
  int fd = ::open(target, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return probe::Denied(probe::Words("open %s", target), errno);
  ::close(fd);
  return probe::Allowed(probe::Words("open %s", target));
}
