// Tries to read a file of the person's home outside the reach: must be refused.
#include "integration/probes/probe.h"

int main() {
  const char* target = probe::Need("TARGET");
  return probe::Report(probe::ReadFile(target), probe::Words("read %s", target));
}
