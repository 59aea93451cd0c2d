// Tries to create a file in /dev/shm (shared with every program of the user):
// must be refused.
#include "integration/probes/probe.h"

int main() {
  const char* target = probe::Words("/dev/shm/bravebot-probe-%d", static_cast<int>(::getpid()));
  long done = probe::CreateFile(target);
  if (done == 0) ::unlink(target);
  return probe::Report(done, probe::Words("create %s", target));
}
