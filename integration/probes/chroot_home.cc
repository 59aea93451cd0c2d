// Tries to chroot into its home: must be refused (EPERM).
#include "integration/probes/probe.h"

int main() {
  const char* home = probe::Need("HOME");
  return probe::Report(::chroot(home), probe::Words("chroot %s", home));
}
