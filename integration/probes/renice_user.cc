// Tries to set the nice value of every process of its user to NICE: must be
// refused (seccomp).
#include <sys/resource.h>

#include "integration/probes/probe.h"

int main() {
  int nice = static_cast<int>(std::strtol(probe::Need("NICE"), nullptr, 10));
  return probe::Report(::setpriority(PRIO_USER, 0, nice),
                       probe::Words("setpriority(PRIO_USER, its own user, %d)", nice));
}
