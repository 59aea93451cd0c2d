// Tries to read the profile directory's mcp.json (every declaration, and
// stored keys): must be refused.
#include "integration/probes/probe.h"

int main() {
  const char* profile = probe::Need("PROFILE");
  const char* target = probe::Words("%s/mcp.json", profile);
  return probe::Report(probe::ReadFile(target), probe::Words("read %s", target));
}
