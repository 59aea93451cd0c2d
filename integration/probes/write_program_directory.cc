// Tries to create a file beside its own program (a directory it may only read
// and run): must be refused.
#include <climits>

#include "integration/probes/probe.h"

int main() {
  char self[PATH_MAX] = {};
  if (::readlink("/proc/self/exe", self, sizeof(self) - 1) < 0) probe::SetupFailed("readlink");
  char* slash = std::strrchr(self, '/');
  if (slash == nullptr) probe::SetupFailed("no directory in /proc/self/exe");
  *slash = '\0';
  const char* target = probe::Words("%s/planted-%d", self, static_cast<int>(::getpid()));
  long done = probe::CreateFile(target);
  if (done == 0) ::unlink(target);
  return probe::Report(done, probe::Words("create %s", target));
}
