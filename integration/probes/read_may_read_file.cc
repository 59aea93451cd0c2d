// Reads the file named by its argument (recorded as a file it may read): must
// work.
#include "integration/probes/probe.h"

int main(int argc, char** argv) {
  if (argc != 2) probe::SetupFailed("usage: read_may_read_file FILE");
  return probe::Report(probe::ReadFile(argv[1]), probe::Words("read %s", argv[1]));
}
