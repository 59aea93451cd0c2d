#include "launcher/child_steps.h"

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <cerrno>

#include "launcher/child_report.h"

namespace bravebot {

void ArmDeathSignal(int parent_pidfd, int error_fd) {
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) {
    ReportStepAndExit(error_fd, ChildStep::kDeathSignal, errno);
  }
  struct pollfd parent = {parent_pidfd, POLLIN, 0};
  if (::poll(&parent, 1, 0) != 0) ReportStepAndExit(error_fd, ChildStep::kDeathSignal, ESRCH);
}

void ResetSignals(int error_fd) {
  struct sigaction default_action = {};
  default_action.sa_handler = SIG_DFL;
  for (int signal = 1; signal < NSIG; ++signal) {
    if (signal == SIGKILL || signal == SIGSTOP) continue;
    ::sigaction(signal, &default_action, nullptr);  // fails only for signals that cannot be set
  }
  sigset_t empty;
  ::sigemptyset(&empty);
  if (::sigprocmask(SIG_SETMASK, &empty, nullptr) != 0) {
    ReportStepAndExit(error_fd, ChildStep::kSignals, errno);
  }
}

void KeepFilesPrivate(int error_fd) {
  ::umask(077);
  struct rlimit no_core = {0, 0};
  if (::setrlimit(RLIMIT_CORE, &no_core) != 0) {
    ReportStepAndExit(error_fd, ChildStep::kLimits, errno);
  }
}

}  // namespace bravebot
