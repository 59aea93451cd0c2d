#include "launcher/child.h"

#include <fcntl.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

namespace bravebot {
namespace {

// Where the error pipe and the ruleset are kept while every other descriptor
// above 2 is closed.
constexpr int kErrorFd = 3;
constexpr int kRulesetFd = 4;

[[noreturn]] void Fail(ChildStep step, int errno_value) {
  ChildFailure failure{static_cast<int>(step), errno_value};
  // One write of a few bytes to a pipe is atomic; nothing to retry into.
  [[maybe_unused]] ssize_t ignored = ::write(kErrorFd, &failure, sizeof(failure));
  ::_exit(127);
}

// Moves `fd` to `target` without losing one that already sits there.
bool MoveTo(int fd, int target) {
  if (fd == target) return ::fcntl(fd, F_SETFD, 0) == 0;
  return ::dup2(fd, target) == target;
}

void ArrangeDescriptors(const ChildPlan& plan) {
  // First out of the way of 0..4, so that placing one cannot clobber another.
  int moved[5];
  const int sources[5] = {plan.stdio_fds[0], plan.stdio_fds[1], plan.stdio_fds[2], plan.error_fd,
                          plan.ruleset_fd};
  for (int i = 0; i < 5; ++i) {
    moved[i] = sources[i] < 0 ? -1 : ::fcntl(sources[i], F_DUPFD_CLOEXEC, 10);
    if (sources[i] >= 0 && moved[i] < 0) Fail(ChildStep::kDescriptors, errno);
  }
  // The error pipe first, so that a later failure can still be reported.
  if (::dup3(moved[3], kErrorFd, O_CLOEXEC) != kErrorFd) ::_exit(127);
  for (int i = 0; i < 3; ++i) {
    if (moved[i] >= 0 && !MoveTo(moved[i], i)) Fail(ChildStep::kDescriptors, errno);
  }
  if (::dup3(moved[4], kRulesetFd, O_CLOEXEC) != kRulesetFd) Fail(ChildStep::kDescriptors, errno);
  if (::syscall(SYS_close_range, kRulesetFd + 1, ~0U, 0) != 0) {
    Fail(ChildStep::kDescriptors, errno);
  }
}

void ResetSignals() {
  sigset_t empty;
  ::sigemptyset(&empty);
  if (::sigprocmask(SIG_SETMASK, &empty, nullptr) != 0) Fail(ChildStep::kSignals, errno);
  struct sigaction default_action = {};
  default_action.sa_handler = SIG_DFL;
  for (int signal = 1; signal < NSIG; ++signal) {
    if (signal == SIGKILL || signal == SIGSTOP) continue;
    ::sigaction(signal, &default_action, nullptr);  // fails only for signals that cannot be set
  }
}

}  // namespace

const char* ChildStepName(ChildStep step) {
  switch (step) {
    case ChildStep::kSession:
      return "start a session of its own";
    case ChildStep::kDeathSignal:
      return "arrange to end with its parent";
    case ChildStep::kDescriptors:
      return "close every descriptor it is not given";
    case ChildStep::kSignals:
      return "reset its signals";
    case ChildStep::kLimits:
      return "turn off core dumps";
    case ChildStep::kFilesystemView:
      return "make the filesystem read-only outside its own directories";
    case ChildStep::kWorkingDirectory:
      return "enter its working directory";
    case ChildStep::kCapabilities:
      return "drop its capabilities";
    case ChildStep::kNoNewPrivileges:
      return "set no-new-privileges";
    case ChildStep::kLandlock:
      return "enforce its Landlock ruleset";
    case ChildStep::kSeccomp:
      return "install its seccomp filter";
    case ChildStep::kExec:
      return "execute the program";
  }
  return "start";
}

void RunChild(const ChildPlan& plan) {
  ArrangeDescriptors(plan);
  if (::setsid() < 0) Fail(ChildStep::kSession, errno);
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) Fail(ChildStep::kDeathSignal, errno);
  // The parent may have died before the death signal was armed.
  if (::getppid() != plan.parent) Fail(ChildStep::kDeathSignal, ESRCH);
  ResetSignals();
  ::umask(077);
  struct rlimit no_core = {0, 0};
  if (::setrlimit(RLIMIT_CORE, &no_core) != 0) Fail(ChildStep::kLimits, errno);
  if (int error = EnterFilesystemView(plan.view); error != 0) {
    Fail(ChildStep::kFilesystemView, error);
  }
  // After the view: the working directory is entered on its writable copy.
  if (::chdir(plan.working_directory) != 0) Fail(ChildStep::kWorkingDirectory, errno);
  if (int error = DropCapabilities(*plan.capabilities); error != 0) {
    Fail(ChildStep::kCapabilities, error);
  }
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) Fail(ChildStep::kNoNewPrivileges, errno);
  if (::syscall(SYS_landlock_restrict_self, kRulesetFd, 0) != 0) Fail(ChildStep::kLandlock, errno);
  ::close(kRulesetFd);
  // Last before execve: once installed, the filter also binds what is left.
  if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, plan.seccomp, 0, 0) != 0) {
    Fail(ChildStep::kSeccomp, errno);
  }
  ::execve(plan.program, plan.argv, plan.envp);
  Fail(ChildStep::kExec, errno);
}

}  // namespace bravebot
