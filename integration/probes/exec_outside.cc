// Tries to run a program outside the reach (a copy of true the test made):
// must be refused. When it runs, true's exit 0 says so.
#include "integration/probes/probe.h"

int main() {
  const char* target = probe::Need("TARGET");
  char* const argv[] = {const_cast<char*>(target), nullptr};
  ::execv(target, argv);
  return probe::Denied(probe::Words("execute %s", target), errno);
}
