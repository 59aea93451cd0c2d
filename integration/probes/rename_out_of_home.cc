// Tries to move a file it made in its home to a directory outside: must be
// refused.
#include <cstdio>

#include "integration/probes/probe.h"

int main() {
  char source[4096];
  std::snprintf(source, sizeof(source), "%s/leaving", probe::Need("HOME"));
  if (probe::Touch(source, O_WRONLY | O_CREAT | O_TRUNC) != 0) probe::SetupFailed("write in home");
  const char* target = probe::Words("%s/arrived", probe::Need("TARGET_DIR"));
  return probe::Report(std::rename(source, target), probe::Words("rename into %s", target));
}
