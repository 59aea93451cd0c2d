// Tries to set an extended attribute on a file outside the reach: must be
// refused.
#include <sys/xattr.h>

#include "integration/probes/probe.h"

int main() {
  const char* target = probe::Need("TARGET");
  long done = ::setxattr(target, "user.bravebot-probe", "x", 1, 0);
  return probe::Report(done, probe::Words("setxattr user.bravebot-probe on %s", target));
}
