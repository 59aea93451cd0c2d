// Tries to move a file from outside into its home, where it could read it:
// must be refused.
#include <cstdio>

#include "integration/probes/probe.h"

int main() {
  const char* source = probe::Need("TARGET");
  char target[4096];
  std::snprintf(target, sizeof(target), "%s/stolen", probe::Need("HOME"));
  return probe::Report(std::rename(source, target), probe::Words("rename %s into home", source));
}
