#include "cli/supervisor_child.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "base/own_programs.h"

extern char** environ;

namespace bravebot {

SupervisorChild::SupervisorChild(pid_t pid, UniqueFd input, UniqueFd output)
    : pid_(pid), input_(std::move(input)), output_(std::move(output)) {}

SupervisorChild::~SupervisorChild() { Wait(); }

Result<std::unique_ptr<SupervisorChild>> SupervisorChild::Start(const std::string& program) {
  int to_child[2];
  int from_child[2];
  if (::pipe2(to_child, O_CLOEXEC) != 0) return Error::FromErrno("a pipe to the supervisor");
  UniqueFd child_input(to_child[0]), input(to_child[1]);
  if (::pipe2(from_child, O_CLOEXEC) != 0) return Error::FromErrno("a pipe from the supervisor");
  UniqueFd output(from_child[0]), child_output(from_child[1]);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, child_input.get(), 0);
  posix_spawn_file_actions_adddup2(&actions, child_output.get(), 1);
  // The session ignores SIGPIPE; the supervisor starts from the default and
  // decides for itself, as it does when a front end starts it.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t pipe_signal;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  posix_spawnattr_setsigdefault(&attributes, &pipe_signal);
  // A front end that takes its stop signals on a thread of its own blocks
  // them; the supervisor takes them itself.
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  pid_t pid = -1;
  char* argv[] = {const_cast<char*>(program.c_str()), nullptr};
  const int failed = ::posix_spawn(&pid, program.c_str(), &actions, &attributes, argv, environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  if (failed != 0) return Error::FromErrno("starting " + program, failed);
  ::fcntl(input.get(), F_SETFL, ::fcntl(input.get(), F_GETFL) | O_NONBLOCK);
  return std::unique_ptr<SupervisorChild>(
      new SupervisorChild(pid, std::move(input), std::move(output)));
}

Result<std::unique_ptr<SupervisorChild>> SupervisorChild::StartOursBesideUs(
    const FileSystemView& fs, const std::string& so_that) {
  const std::string program = ProgramBesideThisOne("bravebot-supervisor");
  if (program.empty() || !fs.IsExecutableFile(program)) {
    return Error(ErrorCode::kNotFound, "bravebot-supervisor is not beside bravebot-mcp, so " +
                                           so_that + ": install both");
  }
  return Start(program);
}

bool SupervisorChild::QueueLine(const std::string& line) {
  if (!input_.valid()) return false;
  unwritten_ += line;
  unwritten_ += '\n';
  return Flush();
}

bool SupervisorChild::Flush() {
  while (!unwritten_.empty() && input_.valid()) {
    ssize_t wrote = ::write(input_.get(), unwritten_.data(), unwritten_.size());
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote < 0 && errno == EAGAIN) return true;  // the rest when it can take it
    if (wrote <= 0) {  // EPIPE: it ended (SIGPIPE is ignored by the caller)
      input_.reset();
      unwritten_.clear();
      return false;
    }
    unwritten_.erase(0, static_cast<std::size_t>(wrote));
  }
  return input_.valid();
}

std::optional<std::string> SupervisorChild::TakeBufferedLine() { return lines_.Next(); }

bool SupervisorChild::ReadMore() {
  char chunk[65536];
  for (;;) {
    ssize_t got = ::read(output_.get(), chunk, sizeof(chunk));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    lines_.Feed(std::string_view(chunk, static_cast<std::size_t>(got)));
    return true;
  }
}

int SupervisorChild::Wait() {
  if (status_) return *status_;
  input_.reset();
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0) {
    if (errno != EINTR) {
      status_ = 1;
      return *status_;
    }
  }
  status_ = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
  return *status_;
}

}  // namespace bravebot
