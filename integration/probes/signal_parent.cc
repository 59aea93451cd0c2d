// Tries to signal its parent (kill with signal 0, which checks the permission
// and sends nothing): must be refused (Landlock's signal scope, ABI 6).
#include <signal.h>

#include "integration/probes/probe.h"

int main() {
  pid_t parent = probe::TargetProcess();
  return probe::Report(::kill(parent, 0), probe::Words("kill(%d, 0)", static_cast<int>(parent)));
}
