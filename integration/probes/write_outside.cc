// Tries to write an existing file outside every writable directory: must be
// refused.
#include "integration/probes/probe.h"

int main() {
  const char* target = probe::Need("TARGET");
  return probe::Report(probe::AppendTo(target), probe::Words("write %s", target));
}
