#include "launcher/server_exec.h"

#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

#include "launcher/child_report.h"

namespace bravebot {

void ConfineAndExec(const ServerExec& exec) {
  if (exec.landlock) {
    if (::syscall(SYS_landlock_restrict_self, kRulesetFd, 0) != 0) {
      ReportStepAndExit(kErrorFd, ChildStep::kLandlock, errno);
    }
    ::close(kRulesetFd);
  }
  if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, exec.seccomp, 0, 0) != 0) {
    ReportStepAndExit(kErrorFd, ChildStep::kSeccomp, errno);
  }
  if (::fchdir(exec.working_directory_fd) != 0)
    ReportStepAndExit(kErrorFd, ChildStep::kWorkingDirectory, errno);
  ::close(exec.working_directory_fd);
  ::execve(exec.program, exec.argv, exec.envp);
  ReportStepAndExit(kErrorFd, ChildStep::kExec, errno);
}

}  // namespace bravebot
