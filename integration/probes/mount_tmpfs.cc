// Tries to mount a tmpfs on its home: must be refused (EPERM).
#include <sys/mount.h>

#include "integration/probes/probe.h"

int main() {
  const char* home = probe::Need("HOME");
  return probe::Report(::mount("none", home, "tmpfs", 0, nullptr),
                       probe::Words("mount tmpfs on %s", home));
}
