// Tries to read a file in another server's home (mcp-home/<other digest>):
// must be refused.
#include "integration/probes/probe.h"

int main() {
  const char* target = probe::Need("TARGET");
  return probe::Report(probe::ReadFile(target), probe::Words("read %s", target));
}
