// Tries to write the file named by its argument (a file it may only read):
// must be refused.
#include "integration/probes/probe.h"

int main(int argc, char** argv) {
  if (argc != 2) probe::SetupFailed("usage: write_may_read_file FILE");
  return probe::Report(probe::AppendTo(argv[1]), probe::Words("write %s", argv[1]));
}
