// Tries to move a process outside its confinement (named by TARGET_PID) to
// the batch scheduling policy: must be refused (seccomp).
#include <sched.h>

#include "integration/probes/probe.h"

int main() {
  pid_t pid = static_cast<pid_t>(std::strtol(probe::Need("TARGET_PID"), nullptr, 10));
  struct sched_param parameters = {};
  return probe::Report(::sched_setscheduler(pid, SCHED_BATCH, &parameters),
                       probe::Words("sched_setscheduler(%d, SCHED_BATCH)", static_cast<int>(pid)));
}
