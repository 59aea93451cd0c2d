#include "launcher/child.h"

#include <fcntl.h>
#include <linux/seccomp.h>
#include <poll.h>
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

[[noreturn]] void ReportStepAndExit(int error_fd, ChildStep step, int errno_value) {
  ChildFailure failure{static_cast<int>(step), errno_value};
  // One write of a few bytes to a pipe is atomic; nothing to retry into.
  [[maybe_unused]] ssize_t ignored = ::write(error_fd, &failure, sizeof(failure));
  ::_exit(127);
}

// Moves `fd` to `target` without losing one that already sits there.
bool MoveTo(int fd, int target) {
  if (fd == target) return ::fcntl(fd, F_SETFD, 0) == 0;
  return ::dup2(fd, target) == target;
}

// The parent may have ended before the death signal was armed; its pidfd
// says so, in whatever PID namespace the child is.
void ArmDeathSignal(const ChildPlan& plan) {
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) {
    ReportStepAndExit(plan.error_fd, ChildStep::kDeathSignal, errno);
  }
  struct pollfd parent = {plan.parent_pidfd, POLLIN, 0};
  if (::poll(&parent, 1, 0) != 0) ReportStepAndExit(plan.error_fd, ChildStep::kDeathSignal, ESRCH);
}

void ArrangeDescriptors(const ChildPlan& plan) {
  // First out of the way of 0..4, so that placing one cannot clobber another.
  // Until the error pipe sits on 3, a failure is reported on its first place.
  int moved[5];
  const int sources[5] = {plan.stdio_fds[0], plan.stdio_fds[1], plan.stdio_fds[2], plan.error_fd,
                          plan.ruleset_fd};
  for (int i = 0; i < 5; ++i) {
    moved[i] = sources[i] < 0 ? -1 : ::fcntl(sources[i], F_DUPFD_CLOEXEC, 10);
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
  if (moved[4] >= 0 && ::dup3(moved[4], kRulesetFd, O_CLOEXEC) != kRulesetFd) {
    ReportStepAndExit(kErrorFd, ChildStep::kDescriptors, errno);
  }
  if (::syscall(SYS_close_range, kRulesetFd + 1, ~0U, 0) != 0) {
    ReportStepAndExit(kErrorFd, ChildStep::kDescriptors, errno);
  }
  if (moved[4] < 0) ::close(kRulesetFd);
}

void ResetSignals() {
  sigset_t empty;
  ::sigemptyset(&empty);
  if (::sigprocmask(SIG_SETMASK, &empty, nullptr) != 0)
    ReportStepAndExit(kErrorFd, ChildStep::kSignals, errno);
  struct sigaction default_action = {};
  default_action.sa_handler = SIG_DFL;
  for (int signal = 1; signal < NSIG; ++signal) {
    if (signal == SIGKILL || signal == SIGSTOP) continue;
    ::sigaction(signal, &default_action, nullptr);  // fails only for signals that cannot be set
  }
}

// The namespaces, the read-only view and the working directory, in that
// order: the directory is entered on its writable copy.
int EnterWorld(const ChildPlan& plan) {
  const bool landlock = plan.ruleset_fd >= 0;
  if (int error = EnterUserNamespace(plan.isolation); error != 0) {
    ReportStepAndExit(kErrorFd, ChildStep::kUserNamespace, error);
  }
  if (int error = MountOwnProc(plan.isolation, landlock ? kRulesetFd : -1); error != 0) {
    ReportStepAndExit(kErrorFd, ChildStep::kOwnProc, error);
  }
  if (int error = EnterFilesystemView(plan.view); error != 0) {
    ReportStepAndExit(kErrorFd, ChildStep::kFilesystemView, error);
  }
  int working_directory = OpenVerifiedDirectory(plan.working_directory);
  if (working_directory < 0)
    ReportStepAndExit(kErrorFd, ChildStep::kWorkingDirectory, -working_directory);
  return working_directory;
}

// Landlock, seccomp last, the working directory, execve.
[[noreturn]] void ConfineAndExec(const ChildPlan& plan, int working_directory) {
  if (plan.ruleset_fd >= 0) {
    if (::syscall(SYS_landlock_restrict_self, kRulesetFd, 0) != 0) {
      ReportStepAndExit(kErrorFd, ChildStep::kLandlock, errno);
    }
    ::close(kRulesetFd);
  }
  // Last before execve: once installed, the filter also binds what is left.
  if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, plan.seccomp, 0, 0) != 0) {
    ReportStepAndExit(kErrorFd, ChildStep::kSeccomp, errno);
  }
  if (::fchdir(working_directory) != 0)
    ReportStepAndExit(kErrorFd, ChildStep::kWorkingDirectory, errno);
  ::close(working_directory);
  ::execve(plan.program, plan.argv, plan.envp);
  ReportStepAndExit(kErrorFd, ChildStep::kExec, errno);
}

}  // namespace

const char* ChildStepName(ChildStep step) {
  switch (step) {
    case ChildStep::kDeathSignal:
      return "arrange to end with its parent";
    case ChildStep::kDescriptors:
      return "close every descriptor it is not given";
    case ChildStep::kUserNamespace:
      return "enter a user namespace of its own";
    case ChildStep::kOwnProc:
      return "mount a /proc of its own";
    case ChildStep::kFilesystemView:
      return "make the filesystem read-only outside its own directories";
    case ChildStep::kWorkingDirectory:
      return "enter its working directory (it must be the one its reach was computed for)";
    case ChildStep::kSignals:
      return "reset its signals";
    case ChildStep::kLimits:
      return "turn off core dumps";
    case ChildStep::kCapabilities:
      return "drop its capabilities";
    case ChildStep::kNoNewPrivileges:
      return "set no-new-privileges";
    case ChildStep::kSession:
      return "start a session of its own";
    case ChildStep::kInit:
      return "start the server under its own init";
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
  ArmDeathSignal(plan);
  ArrangeDescriptors(plan);
  const int working_directory = EnterWorld(plan);
  ResetSignals();
  ::umask(077);
  struct rlimit no_core = {0, 0};
  if (::setrlimit(RLIMIT_CORE, &no_core) != 0)
    ReportStepAndExit(kErrorFd, ChildStep::kLimits, errno);
  if (int error = DropCapabilities(*plan.capabilities); error != 0) {
    ReportStepAndExit(kErrorFd, ChildStep::kCapabilities, error);
  }
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    ReportStepAndExit(kErrorFd, ChildStep::kNoNewPrivileges, errno);
  }
  if (::setsid() < 0) ReportStepAndExit(kErrorFd, ChildStep::kSession, errno);
  if (plan.isolation.pid_namespace) {
    // From here on this is the server's process; the init stays behind.
    if (int error = StartServerUnderInit(plan.wipe); error != 0) {
      ReportStepAndExit(kErrorFd, ChildStep::kInit, error);
    }
    ResetInitSignals();
    if (::setsid() < 0) ReportStepAndExit(kErrorFd, ChildStep::kSession, errno);
  }
  ConfineAndExec(plan, working_directory);
}

}  // namespace bravebot
