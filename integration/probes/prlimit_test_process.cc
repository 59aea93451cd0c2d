// Tries to lower the open-file limit of the process that started the
// supervisor (the test, named by TARGET_PID) to NOFILE_SOFT, keeping its hard
// limit NOFILE_HARD: must be refused (seccomp). A CPU time limit set this way
// would kill it with SIGXCPU.
#include <sys/resource.h>

#include "integration/probes/probe.h"

int main() {
  pid_t pid = static_cast<pid_t>(std::strtol(probe::Need("TARGET_PID"), nullptr, 10));
  struct rlimit lower = {std::strtoull(probe::Need("NOFILE_SOFT"), nullptr, 10),
                         std::strtoull(probe::Need("NOFILE_HARD"), nullptr, 10)};
  return probe::Report(::prlimit(pid, RLIMIT_NOFILE, &lower, nullptr),
                       probe::Words("prlimit(%d, RLIMIT_NOFILE, %llu)", static_cast<int>(pid),
                                    static_cast<unsigned long long>(lower.rlim_cur)));
}
