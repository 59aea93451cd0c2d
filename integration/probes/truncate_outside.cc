// Tries to truncate a file outside the reach by its path: must be refused
// (Landlock's truncate right, ABI 3).
#include "integration/probes/probe.h"

int main() {
  const char* target = probe::Need("TARGET");
  return probe::Report(::truncate(target, 0), probe::Words("truncate %s", target));
}
