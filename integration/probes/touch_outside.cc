// Tries to set the times of a file outside the reach (to 1970): must be
// refused.
#include <sys/stat.h>

#include "integration/probes/probe.h"

int main() {
  const char* target = probe::Need("TARGET");
  const struct timespec epoch[2] = {{0, 0}, {0, 0}};
  long done = ::utimensat(AT_FDCWD, target, epoch, 0);
  return probe::Report(done, probe::Words("set the times of %s", target));
}
