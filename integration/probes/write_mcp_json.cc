// Tries to rewrite the profile directory's mcp.json (to declare itself more):
// must be refused.
#include "integration/probes/probe.h"

int main() {
  const char* profile = probe::Need("PROFILE");
  const char* target = probe::Words("%s/mcp.json", profile);
  return probe::Report(probe::AppendTo(target), probe::Words("write %s", target));
}
