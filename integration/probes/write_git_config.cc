// Tries to write .git/config of a repository outside the reach (core.fsmonitor
// and friends run programs): must be refused.
#include "integration/probes/probe.h"

int main() {
  const char* target = probe::Words("%s/.git/config", probe::Need("REPOSITORY"));
  return probe::Report(probe::AppendTo(target), probe::Words("write %s", target));
}
