// Tries to signal the process that started the supervisor (the test, named by
// TARGET_PID), with signal 0: must be refused (Landlock's signal scope).
#include <signal.h>

#include "integration/probes/probe.h"

int main() {
  const char* target = probe::Need("TARGET_PID");
  pid_t pid = static_cast<pid_t>(std::strtol(target, nullptr, 10));
  return probe::Report(::kill(pid, 0), probe::Words("kill(%d, 0)", static_cast<int>(pid)));
}
