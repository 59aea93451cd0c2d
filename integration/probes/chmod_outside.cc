// Tries to change the mode of a file outside the reach (0666 to 0600): must be
// refused.
#include <sys/stat.h>

#include "integration/probes/probe.h"

int main() {
  const char* target = probe::Need("TARGET");
  return probe::Report(::chmod(target, 0600), probe::Words("chmod 0600 %s", target));
}
