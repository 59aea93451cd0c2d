// Tries to read /etc/shadow by another name, /proc/self/root/etc/shadow: must
// be refused.
#include "integration/probes/probe.h"

int main() {
  const char* target = "/proc/self/root/etc/shadow";
  return probe::Report(probe::ReadFile(target), probe::Words("read %s", target));
}
