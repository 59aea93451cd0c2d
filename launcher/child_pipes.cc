#include "launcher/child_pipes.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "launcher/child_report.h"

namespace bravebot {

Result<Pipe> MakePipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return Error::FromErrno("create a pipe");
  return Pipe{UniqueFd(fds[0]), UniqueFd(fds[1])};
}

void KeepParentEnds(Pipe (&stdio)[3], UniqueFd& input, UniqueFd& output, UniqueFd& errors) {
  input = std::move(stdio[0].write_end);
  output = std::move(stdio[1].read_end);
  errors = std::move(stdio[2].read_end);
  for (Pipe& pipe : stdio) {
    pipe.read_end.reset();
    pipe.write_end.reset();
  }
}

Status AwaitExec(int error_read_fd, pid_t pid) {
  ChildFailure failure{};
  ssize_t got;
  do {
    got = ::read(error_read_fd, &failure, sizeof(failure));
  } while (got < 0 && errno == EINTR);
  if (got == 0) return {};
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (got != sizeof(failure)) {
    return Error(ErrorCode::kSystem,
                 "the confined child ended before it could execute the program");
  }
  const auto step = static_cast<ChildStep>(failure.step);
  return Error::FromErrno(std::string("the confined child could not ") + ChildStepName(step),
                          failure.errno_value);
}

}  // namespace bravebot
