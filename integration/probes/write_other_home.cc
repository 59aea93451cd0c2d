// Tries to create a file in another server's home: must be refused.
#include "integration/probes/probe.h"

int main() {
  const char* other = probe::Need("TARGET_DIR");
  const char* target = probe::Words("%s/planted", other);
  return probe::Report(probe::CreateFile(target), probe::Words("create %s", target));
}
