// Tries to make a directory beside its own home in mcp-home (a home for a
// server not yet started): must be refused.
#include <sys/stat.h>

#include "integration/probes/probe.h"

int main() {
  const char* home = probe::Need("HOME");
  const char* target = probe::Words("%s/../%064d", home, 0);
  return probe::Report(::mkdir(target, 0700), probe::Words("mkdir %s", target));
}
