// Tries to hard-link a file from outside into its own home and read it there:
// the link must be refused (EXDEV from Landlock's refer rule, or EACCES).
#include "integration/probes/probe.h"

int main() {
  const char* target = probe::Need("TARGET");
  const char* link = probe::Words("%s/stolen", probe::Need("HOME"));
  if (::link(target, link) != 0) {
    return probe::Denied(probe::Words("link %s to %s", target, link), errno);
  }
  return probe::Report(probe::ReadFile(link), probe::Words("read %s through a hard link", target));
}
