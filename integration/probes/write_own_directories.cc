// Creates a file in its home, its temporary directory and its working
// directory (--dir): must work.
#include "integration/probes/probe.h"

int main() {
  const char* places[] = {probe::Need("HOME"), probe::Need("TMPDIR"), "."};
  for (const char* place : places) {
    char target[4096];
    std::snprintf(target, sizeof(target), "%s/made-by-probe", place);
    if (probe::CreateFile(target) != 0) {
      return probe::Denied(probe::Words("create %s", target), errno);
    }
  }
  return probe::Allowed("create a file in $HOME, $TMPDIR and the working directory");
}
