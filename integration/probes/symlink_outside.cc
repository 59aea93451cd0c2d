// Makes a symlink in its home to a file outside and tries to read through it:
// the read must be refused (Landlock judges the file the link leads to).
#include "integration/probes/probe.h"

int main() {
  const char* target = probe::Need("TARGET");
  char link[4096];
  std::snprintf(link, sizeof(link), "%s/stolen", probe::Need("HOME"));
  if (::symlink(target, link) != 0) {
    return probe::Denied(probe::Words("symlink %s to %s", link, target), errno);
  }
  return probe::Report(probe::ReadFile(link), probe::Words("read %s through %s", target, link));
}
