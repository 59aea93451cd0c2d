#include "launcher/server_exec.h"

#include <linux/seccomp.h>
#include <sys/prctl.h>

#include "launcher/child_report.h"
#include "launcher/raw_syscall.h"

namespace bravebot {

void ConfineAndExec(const ServerExec& exec) {
  if (exec.landlock) {
    if (int error = RawErrno(RawSyscall(SYS_landlock_restrict_self, kRulesetFd, 0))) {
      ReportStepAndExit(kErrorFd, ChildStep::kLandlock, error);
    }
    RawSyscall(SYS_close, kRulesetFd);
  }
  if (int error = RawErrno(RawSyscall(SYS_prctl, PR_SET_SECCOMP, SECCOMP_MODE_FILTER,
                                      reinterpret_cast<long>(exec.seccomp)))) {
    ReportStepAndExit(kErrorFd, ChildStep::kSeccomp, error);
  }
  if (int error = RawErrno(RawSyscall(SYS_fchdir, exec.working_directory_fd))) {
    ReportStepAndExit(kErrorFd, ChildStep::kWorkingDirectory, error);
  }
  RawSyscall(SYS_close, exec.working_directory_fd);
  const long executed =
      RawSyscall(SYS_execve, reinterpret_cast<long>(exec.program),
                 reinterpret_cast<long>(exec.argv), reinterpret_cast<long>(exec.envp));
  ReportStepAndExit(kErrorFd, ChildStep::kExec, RawErrno(executed));
}

}  // namespace bravebot
