#include "base/plain_child.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
// Boost 1.81's Process v2 on std::filesystem (BOOST_PROCESS_USE_STD_FS, set
// for bravebot_base) names these without including them.
#include <boost/optional.hpp>
#include <boost/type_traits/decay.hpp>
#include <boost/type_traits/is_convertible.hpp>
// Then Process v2 itself.
#include <boost/process/v2/process.hpp>
#include <boost/process/v2/stdio.hpp>
#include <cerrno>
#include <exception>
#include <utility>

#include "base/unique_fd.h"

namespace bravebot {
namespace {

namespace process = boost::process::v2;
using Process = process::basic_process<boost::asio::io_context::executor_type>;

// Run by the child between fork and exec, each step async-signal-safe (a
// front end has a thread taking its stop signals): the state the header
// promises. Every descriptor but 0, 1 and 2 is marked close-on-exec here,
// because Boost 1.81's own closing (posix/detail/close_handles.ipp) closes
// only those above the highest it keeps, and keeps its error pipe, which
// may lie above a descriptor the parent leaked. (Boost's launcher itself
// lets Asio copy a list in the child, which glibc's fork makes safe by
// resetting its allocator's locks there.)
struct StartFromDefaults {
  template <typename Launcher>
  process::error_code on_exec_setup(Launcher&, const process::filesystem::path&,
                                    const char* const*) {
    struct sigaction default_action = {};
    default_action.sa_handler = SIG_DFL;
    sigset_t none;
    sigemptyset(&none);
    if (::sigaction(SIGPIPE, &default_action, nullptr) != 0 ||
        ::sigprocmask(SIG_SETMASK, &none, nullptr) != 0 ||
        ::close_range(STDERR_FILENO + 1, ~0U, CLOSE_RANGE_CLOEXEC) != 0) {
      return process::error_code(errno, process::system_category());
    }
    return {};
  }
};

// The exit status `native` (waitpid's) as a shell gives it.
int ShellStatus(int native) {
  return WIFSIGNALED(native) ? 128 + WTERMSIG(native) : WEXITSTATUS(native);
}

}  // namespace

// Its own small loop: Process v2 keeps the child's pidfd on an executor, and
// a plain child is waited for where it is used, not on a session's loop.
struct PlainChild::Running {
  boost::asio::io_context context{1};
  std::optional<Process> process;
};

PlainChild::PlainChild(std::unique_ptr<Running> running) : running_(std::move(running)) {}
PlainChild::PlainChild(PlainChild&&) noexcept = default;
PlainChild& PlainChild::operator=(PlainChild&&) noexcept = default;
PlainChild::~PlainChild() = default;

Result<PlainChild> PlainChild::Start(const PlainChildPlan& plan) {
  // Asked here first: where Boost 1.81's exec fails, its child leaves by
  // exit(), not _exit(), running our atexit handlers in a copy of a parent
  // that may have threads.
  if (::access(plan.program.c_str(), X_OK) != 0)
    return Error::FromErrno("starting " + plan.program);
  UniqueFd null_device;
  if (plan.input == kNullDevice || plan.output == kNullDevice || plan.error == kNullDevice) {
    null_device.reset(::open("/dev/null", O_RDWR | O_CLOEXEC));
    if (!null_device.valid()) return Error::FromErrno("opening /dev/null for " + plan.program);
  }
  const auto or_null = [&](int fd) { return fd == kNullDevice ? null_device.get() : fd; };
  static const char* const kNoEnvironment[] = {nullptr};
  process::posix::default_launcher launcher;
  if (!plan.our_environment) launcher.env = kNoEnvironment;

  auto running = std::make_unique<Running>();
  process::error_code failed;
  try {
    running->process.emplace(launcher(
        running->context.get_executor(), failed, plan.program, plan.arguments,
        process::process_stdio{or_null(plan.input), or_null(plan.output), or_null(plan.error)},
        StartFromDefaults{}));
  } catch (const std::exception& thrown) {
    // Its pidfd could not be opened or watched after the fork: the child
    // runs, and is ours to end.
    if (launcher.pid > 0) {
      ::kill(launcher.pid, SIGKILL);
      while (::waitpid(launcher.pid, nullptr, 0) < 0 && errno == EINTR) {
      }
    }
    return Error(ErrorCode::kSystem, "starting " + plan.program + ": " + thrown.what());
  }
  if (failed) {
    // Its exec (or the setup before it) failed in a child that was forked:
    // that child has ended, and is reaped here, not left a zombie.
    if (launcher.pid > 0) {
      while (::waitpid(launcher.pid, nullptr, 0) < 0 && errno == EINTR) {
      }
    }
    return Error::FromErrno("starting " + plan.program, failed.value());
  }
  return PlainChild(std::move(running));
}

pid_t PlainChild::pid() const { return running_->process->id(); }

int PlainChild::Wait() {
  if (status_) return *status_;
  process::error_code failed;
  running_->process->wait(failed);
  status_ = failed ? 1 : ShellStatus(running_->process->native_exit_code());
  // Reaped (or not ours to reap): forgotten, so that its destructor never
  // kills a later child the kernel gave the same number.
  running_->process->detach();
  return *status_;
}

}  // namespace bravebot
