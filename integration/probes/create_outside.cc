// Tries to create a file in a directory outside every writable one: must be
// refused.
#include "integration/probes/probe.h"

int main() {
  const char* directory = probe::Need("TARGET_DIR");
  const char* target = probe::Words("%s/planted", directory);
  return probe::Report(probe::CreateFile(target), probe::Words("create %s", target));
}
