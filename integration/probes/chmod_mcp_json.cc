// Tries to make the profile directory's mcp.json (which holds stored keys)
// readable by every user: must be refused.
#include <sys/stat.h>

#include "integration/probes/probe.h"

int main() {
  const char* target = probe::Words("%s/mcp.json", probe::Need("PROFILE"));
  return probe::Report(::chmod(target, 0644), probe::Words("chmod 0644 %s", target));
}
