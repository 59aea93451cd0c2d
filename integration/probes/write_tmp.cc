// Tries to create a file in the system's /tmp itself (only its own run
// directory there is in the reach): must be refused.
#include "integration/probes/probe.h"

int main() {
  const char* target = probe::Words("/tmp/bravebot-probe-%d", static_cast<int>(::getpid()));
  long done = probe::CreateFile(target);
  if (done == 0) ::unlink(target);
  return probe::Report(done, probe::Words("create %s", target));
}
