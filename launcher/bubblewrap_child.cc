#include "launcher/bubblewrap_child.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

#include "launcher/child_report.h"

namespace bravebot {
namespace {

// bwrap is the first process of the server: it ends with the thread that
// started it, and --die-with-parent ends the sandbox with bwrap. The parent
// may have ended before the signal was armed; its pidfd says so.
void ArmDeathSignal(const BubblewrapChildPlan& plan) {
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) {
    ReportStepAndExit(plan.error_fd, ChildStep::kDeathSignal, errno);
  }
  struct pollfd parent = {plan.parent_pidfd, POLLIN, 0};
  if (::poll(&parent, 1, 0) != 0) ReportStepAndExit(plan.error_fd, ChildStep::kDeathSignal, ESRCH);
}

// Every given descriptor first out of the way of the numbers it goes to, so
// that placing one cannot clobber another; dup2 leaves each open across
// bwrap's exec, the error pipe alone closes there.
void ArrangeDescriptors(const BubblewrapChildPlan& plan) {
  const int count = 6 + plan.bind_count;
  const int above = kBubblewrapFirstBindFd + plan.bind_count;
  int* moved = plan.scratch;
  for (int i = 0; i < count; ++i) {
    int source = -1;
    if (i < 3) source = plan.stdio_fds[i];
    if (i == 3) source = plan.error_fd;
    if (i == 4) source = plan.arguments_fd;
    if (i == 5) source = plan.seccomp_fd;
    if (i >= 6) source = plan.bind_fds[i - 6];
    moved[i] = source < 0 ? -1 : ::fcntl(source, F_DUPFD_CLOEXEC, above);
    if (source >= 0 && moved[i] < 0)
      ReportStepAndExit(plan.error_fd, ChildStep::kDescriptors, errno);
  }
  if (::dup3(moved[3], kErrorFd, O_CLOEXEC) != kErrorFd) {
    ReportStepAndExit(plan.error_fd, ChildStep::kDescriptors, errno);
  }
  for (int i = 0; i < count; ++i) {
    if (i == 3 || moved[i] < 0) continue;
    if (::dup2(moved[i], i) != i) ReportStepAndExit(kErrorFd, ChildStep::kDescriptors, errno);
  }
  if (::syscall(SYS_close_range, above, ~0U, 0) != 0) {
    ReportStepAndExit(kErrorFd, ChildStep::kDescriptors, errno);
  }
}

void ResetSignals() {
  struct sigaction default_action = {};
  default_action.sa_handler = SIG_DFL;
  for (int signal = 1; signal < NSIG; ++signal) {
    if (signal == SIGKILL || signal == SIGSTOP) continue;
    ::sigaction(signal, &default_action, nullptr);  // fails only for signals that cannot be set
  }
  sigset_t empty;
  ::sigemptyset(&empty);
  if (::sigprocmask(SIG_SETMASK, &empty, nullptr) != 0)
    ReportStepAndExit(kErrorFd, ChildStep::kSignals, errno);
}

}  // namespace

int RunBubblewrapChild(void* plan_pointer) {
  const BubblewrapChildPlan& plan = *static_cast<const BubblewrapChildPlan*>(plan_pointer);
  ArmDeathSignal(plan);
  ArrangeDescriptors(plan);
  ResetSignals();
  ::umask(077);
  struct rlimit no_core = {0, 0};
  if (::setrlimit(RLIMIT_CORE, &no_core) != 0)
    ReportStepAndExit(kErrorFd, ChildStep::kLimits, errno);
  // Its own session and process group, so that a signal to the group reaches
  // bwrap and nothing of ours; the server gets a session of its own inside.
  if (::setsid() < 0) ReportStepAndExit(kErrorFd, ChildStep::kSession, errno);
  // No environment: bwrap runs unconfined, and its C library reads variables
  // (GLIBC_TUNABLES) as it starts; the server's come in --setenv, in the
  // sealed --args file.
  char* const no_environment[] = {nullptr};
  ::execve(plan.bwrap, plan.argv, no_environment);
  ReportStepAndExit(kErrorFd, ChildStep::kBubblewrap, errno);
}

}  // namespace bravebot
