// Tries to read its parent's /proc/<pid>/environ (the supervisor's keys):
// must be refused.
#include "integration/probes/probe.h"

int main() {
  const char* target = probe::Words("/proc/%d/environ", static_cast<int>(probe::TargetProcess()));
  return probe::Report(probe::ReadFile(target), probe::Words("read %s", target));
}
