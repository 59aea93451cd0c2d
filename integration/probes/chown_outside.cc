// Tries to change the group of a file outside the reach to its own: must be
// refused.
#include "integration/probes/probe.h"

int main() {
  const char* target = probe::Need("TARGET");
  gid_t group = ::getegid();
  long done = ::chown(target, static_cast<uid_t>(-1), group);
  return probe::Report(done, probe::Words("chown :%u %s", static_cast<unsigned>(group), target));
}
