// Tries to set the nice value of a process outside its confinement (named by
// TARGET_PID) to NICE: must be refused (seccomp).
#include <sys/resource.h>

#include "integration/probes/probe.h"

int main() {
  int pid = static_cast<int>(std::strtol(probe::Need("TARGET_PID"), nullptr, 10));
  int nice = static_cast<int>(std::strtol(probe::Need("NICE"), nullptr, 10));
  return probe::Report(::setpriority(PRIO_PROCESS, static_cast<id_t>(pid), nice),
                       probe::Words("setpriority(PRIO_PROCESS, %d, %d)", pid, nice));
}
