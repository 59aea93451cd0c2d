#include "launcher/child.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

#include "launcher/child_steps.h"
#include "launcher/server_exec.h"

namespace bravebot {
namespace {

// Moves `fd` to `target` without losing one that already sits there.
bool MoveTo(int fd, int target) {
  if (fd == target) return ::fcntl(fd, F_SETFD, 0) == 0;
  return ::dup2(fd, target) == target;
}

// Puts what the plan gives on the numbers of child_report.h (0, 1 and 2 for
// the server's standard streams) and closes every other descriptor.
void ArrangeDescriptors(const ChildPlan& plan) {
  constexpr int kGiven = 8;
  const int sources[kGiven] = {plan.stdio_fds[0],   plan.stdio_fds[1],   plan.stdio_fds[2],
                               plan.error_fd,       plan.ruleset_fd,     plan.seccomp_fd,
                               plan.environment_fd, plan.init_program_fd};
  const int targets[kGiven] = {
      0, 1, 2, kErrorFd, kRulesetFd, kSeccompFd, kEnvironmentFd, kInitProgramFd};
  // First out of the way of 0..8, so that placing one cannot clobber another.
  // Until the error pipe sits on 3, a failure is reported on its first place.
  int moved[kGiven];
  for (int i = 0; i < kGiven; ++i) {
    moved[i] = sources[i] < 0 ? -1 : ::fcntl(sources[i], F_DUPFD_CLOEXEC, kInitProgramFd + 1);
    if (sources[i] >= 0 && moved[i] < 0)
      ReportStepAndExit(plan.error_fd, ChildStep::kDescriptors, errno);
  }
  if (::dup3(moved[3], kErrorFd, O_CLOEXEC) != kErrorFd) {
    ReportStepAndExit(plan.error_fd, ChildStep::kDescriptors, errno);
  }
  for (int i = 0; i < 3; ++i) {
    if (moved[i] >= 0 && !MoveTo(moved[i], i))
      ReportStepAndExit(kErrorFd, ChildStep::kDescriptors, errno);
  }
  for (int i = 4; i < kGiven; ++i) {
    if (moved[i] < 0) {
      ::close(targets[i]);  // whatever of the parent's sat there
    } else if (::dup3(moved[i], targets[i], O_CLOEXEC) != targets[i]) {
      ReportStepAndExit(kErrorFd, ChildStep::kDescriptors, errno);
    }
  }
  ::close(kWorkingDirectoryFd);
  if (::syscall(SYS_close_range, kInitProgramFd + 1, ~0U, 0) != 0) {
    ReportStepAndExit(kErrorFd, ChildStep::kDescriptors, errno);
  }
}

// The namespaces, the places of other sockets hidden, the read-only view and
// the working directory, in that order: the view makes the tmpfs over those
// places read-only with the rest, and the directory is entered on its
// writable copy.
void EnterWorld(const ChildPlan& plan) {
  const bool landlock = plan.ruleset_fd >= 0;
  if (int error = EnterUserNamespace(plan.isolation); error != 0) {
    ReportStepAndExit(kErrorFd, ChildStep::kUserNamespace, error);
  }
  if (int error = MountOwnProc(plan.isolation, landlock ? kRulesetFd : -1); error != 0) {
    ReportStepAndExit(kErrorFd, ChildStep::kOwnProc, error);
  }
  if (int error = HideSocketPlaces(plan.socket_mask); error != 0) {
    ReportStepAndExit(kErrorFd, ChildStep::kSocketPlaces, error);
  }
  if (int error = EnterFilesystemView(plan.view); error != 0) {
    ReportStepAndExit(kErrorFd, ChildStep::kFilesystemView, error);
  }
  int directory = OpenVerifiedDirectory(plan.working_directory);
  if (directory < 0) ReportStepAndExit(kErrorFd, ChildStep::kWorkingDirectory, -directory);
  if (directory != kWorkingDirectoryFd) {
    if (::dup3(directory, kWorkingDirectoryFd, O_CLOEXEC) != kWorkingDirectoryFd)
      ReportStepAndExit(kErrorFd, ChildStep::kDescriptors, errno);
    ::close(directory);
  }
}

// The init is given the error pipe, the ruleset, the filter and the working
// directory across its execve; it makes them close-on-exec again at once.
[[noreturn]] void ExecInit(const ChildPlan& plan) {
  // The init runs in the server's working directory, not its starter's,
  // which may lie in a place hidden from the server.
  if (::fchdir(kWorkingDirectoryFd) != 0) {
    ReportStepAndExit(kErrorFd, ChildStep::kWorkingDirectory, errno);
  }
  for (int fd : kHandedOver) {
    if (::fcntl(fd, F_SETFD, 0) != 0 && !(fd == kRulesetFd && errno == EBADF))
      ReportStepAndExit(kErrorFd, ChildStep::kDescriptors, errno);
  }
  // No environment: the init runs unconfined, and its C library reads
  // variables (GLIBC_TUNABLES) as it starts; the server's come on
  // kEnvironmentFd.
  char* const no_environment[] = {nullptr};
  ::syscall(SYS_execveat, kInitProgramFd, "", plan.init_argv, no_environment, AT_EMPTY_PATH);
  ReportStepAndExit(kErrorFd, ChildStep::kInit, errno);
}

}  // namespace

int RunChild(void* plan_pointer) {
  const ChildPlan& plan = *static_cast<const ChildPlan*>(plan_pointer);
  ArmDeathSignal(plan.parent_pidfd, plan.error_fd);
  ArrangeDescriptors(plan);
  EnterWorld(plan);
  ResetSignals(kErrorFd);
  KeepFilesPrivate(kErrorFd);
  if (int error = DropCapabilities(*plan.capabilities); error != 0) {
    ReportStepAndExit(kErrorFd, ChildStep::kCapabilities, error);
  }
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    ReportStepAndExit(kErrorFd, ChildStep::kNoNewPrivileges, errno);
  }
  if (::setsid() < 0) ReportStepAndExit(kErrorFd, ChildStep::kSession, errno);
  if (plan.isolation.pid_namespace) ExecInit(plan);
  ConfineAndExec({plan.ruleset_fd >= 0, plan.seccomp, kWorkingDirectoryFd, plan.program, plan.argv,
                  plan.envp});
}

}  // namespace bravebot
