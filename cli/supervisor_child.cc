#include "cli/supervisor_child.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "base/own_programs.h"

namespace bravebot {

SupervisorChild::SupervisorChild(PlainChild child, UniqueFd input, UniqueFd output)
    : child_(std::move(child)), input_(std::move(input)), output_(std::move(output)) {}

SupervisorChild::~SupervisorChild() { Wait(); }

Result<std::unique_ptr<SupervisorChild>> SupervisorChild::Start(const std::string& program) {
  int to_child[2];
  int from_child[2];
  if (::pipe2(to_child, O_CLOEXEC) != 0) return Error::FromErrno("a pipe to the supervisor");
  UniqueFd child_input(to_child[0]), input(to_child[1]);
  if (::pipe2(from_child, O_CLOEXEC) != 0) return Error::FromErrno("a pipe from the supervisor");
  UniqueFd output(from_child[0]), child_output(from_child[1]);

  // As a front end starts it: SIGPIPE at its default (the session ignores
  // it) and no signal blocked (a front end may take its stop signals on a
  // thread of its own), so the supervisor decides both for itself; and
  // nothing of ours open but the two pipes and our standard error.
  Result<PlainChild> child = PlainChild::Start({.program = program,
                                                .input = child_input.get(),
                                                .output = child_output.get(),
                                                .error = STDERR_FILENO,
                                                .our_environment = true});
  if (!child.ok()) return child.error();
  ::fcntl(input.get(), F_SETFL, ::fcntl(input.get(), F_GETFL) | O_NONBLOCK);
  return std::unique_ptr<SupervisorChild>(
      new SupervisorChild(std::move(*child), std::move(input), std::move(output)));
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
  input_.reset();
  return child_.Wait();
}

}  // namespace bravebot
