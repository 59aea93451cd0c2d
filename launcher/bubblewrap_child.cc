#include "launcher/bubblewrap_child.h"

#include <fcntl.h>
#include <linux/close_range.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

#include "launcher/child_report.h"
#include "launcher/child_steps.h"

namespace bravebot {
namespace {

// Every descriptor above 2 closes on exec but those given to bwrap; the
// standard streams go on 0, 1 and 2 (dup2 leaves the copy open across exec,
// the pipe's own end closes). The error pipe closes once bwrap executes.
void ArrangeDescriptors(const BubblewrapChildPlan& plan) {
  if (::syscall(SYS_close_range, 3, ~0U, CLOSE_RANGE_CLOEXEC) != 0) {
    ReportStepAndExit(plan.error_fd, ChildStep::kDescriptors, errno);
  }
  for (int i = 0; i < plan.given_count; ++i) {
    if (::fcntl(plan.given_fds[i], F_SETFD, 0) != 0) {
      ReportStepAndExit(plan.error_fd, ChildStep::kDescriptors, errno);
    }
  }
  for (int i = 0; i < 3; ++i) {
    if (plan.stdio_fds[i] >= 0 && ::dup2(plan.stdio_fds[i], i) != i) {
      ReportStepAndExit(plan.error_fd, ChildStep::kDescriptors, errno);
    }
  }
}

}  // namespace

int RunBubblewrapChild(void* plan_pointer) {
  const BubblewrapChildPlan& plan = *static_cast<const BubblewrapChildPlan*>(plan_pointer);
  // bwrap is the server's first process: it ends with the thread that
  // started it, and --die-with-parent ends the sandbox with bwrap.
  ArmDeathSignal(plan.parent_pidfd, plan.error_fd);
  ArrangeDescriptors(plan);
  ResetSignals(plan.error_fd);
  KeepFilesPrivate(plan.error_fd);
  // Its own session and process group, so that a signal to the group reaches
  // bwrap and nothing of ours; the server gets a session of its own inside.
  if (::setsid() < 0) ReportStepAndExit(plan.error_fd, ChildStep::kSession, errno);
  // No environment: bwrap runs unconfined, and its C library reads variables
  // (GLIBC_TUNABLES) as it starts; the server's come in --setenv, in the
  // sealed --args file.
  char* const no_environment[] = {nullptr};
  ::execve(plan.bwrap, plan.argv, no_environment);
  ReportStepAndExit(plan.error_fd, ChildStep::kBubblewrap, errno);
}

}  // namespace bravebot
