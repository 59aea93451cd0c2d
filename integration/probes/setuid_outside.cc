// Tries to set the setuid bit on a program outside the reach (a copy of true
// owned by the running user; as root, every system program is such a file):
// must be refused.
#include <sys/stat.h>

#include "integration/probes/probe.h"

int main() {
  const char* target = probe::Need("TARGET");
  return probe::Report(::chmod(target, 04755), probe::Words("chmod 04755 %s", target));
}
