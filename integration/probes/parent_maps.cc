// Tries to read its parent's /proc/<pid>/maps (the layout an exploit wants):
// must be refused.
#include "integration/probes/probe.h"

int main() {
  const char* target = probe::Words("/proc/%d/maps", static_cast<int>(probe::TargetProcess()));
  return probe::Report(probe::ReadFile(target), probe::Words("read %s", target));
}
