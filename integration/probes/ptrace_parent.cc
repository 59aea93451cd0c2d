// Tries ptrace(PTRACE_ATTACH) on its parent: must be refused (EPERM).
#include <sys/ptrace.h>
#include <sys/wait.h>

#include "integration/probes/probe.h"

int main() {
  pid_t parent = probe::TargetProcess();
  const char* what = probe::Words("ptrace(PTRACE_ATTACH, %d)", static_cast<int>(parent));
  if (::ptrace(PTRACE_ATTACH, parent, nullptr, nullptr) != 0) return probe::Denied(what, errno);
  ::waitpid(parent, nullptr, __WALL);
  ::ptrace(PTRACE_DETACH, parent, nullptr, nullptr);
  return probe::Allowed(what);
}
