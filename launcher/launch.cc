#include "launcher/launch.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "launcher/child.h"

namespace bravebot {
namespace {

std::vector<char*> PointerArray(std::vector<std::string>& words) {
  std::vector<char*> pointers;
  pointers.reserve(words.size() + 1);
  for (std::string& word : words) pointers.push_back(word.data());
  pointers.push_back(nullptr);
  return pointers;
}

struct Pipe {
  UniqueFd read_end;
  UniqueFd write_end;
};

Result<Pipe> MakePipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return Error::FromErrno("create a pipe");
  return Pipe{UniqueFd(fds[0]), UniqueFd(fds[1])};
}

// Reads the child's report: nothing (the pipe closed on exec) or one failure.
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

}  // namespace

Result<LaunchedChild> Launch(LaunchRequest& request) {
  if (!request.landlock_ruleset.valid()) {
    return Error(ErrorCode::kRefused, "no server is started without its Landlock ruleset");
  }
  std::vector<char*> argv = PointerArray(request.argv);
  std::vector<char*> envp = PointerArray(request.environment);
  struct sock_fprog seccomp = {static_cast<unsigned short>(request.seccomp.instructions.size()),
                               request.seccomp.instructions.data()};

  Result<Pipe> error_pipe = MakePipe();
  if (!error_pipe) return error_pipe.error();
  Pipe stdio[3];
  if (request.stdio == ChildStdio::kPipes) {
    for (Pipe& pipe : stdio) {
      Result<Pipe> made = MakePipe();
      if (!made) return made.error();
      pipe = std::move(*made);
    }
  }
  const bool piped = request.stdio == ChildStdio::kPipes;
  ChildPlan plan{};
  plan.parent = ::getpid();
  plan.program = request.program.c_str();
  plan.argv = argv.data();
  plan.envp = envp.data();
  plan.working_directory = request.working_directory.c_str();
  plan.stdio_fds[0] = piped ? stdio[0].read_end.get() : -1;
  plan.stdio_fds[1] = piped ? stdio[1].write_end.get() : -1;
  plan.stdio_fds[2] = piped ? stdio[2].write_end.get() : -1;
  plan.error_fd = error_pipe->write_end.get();
  plan.ruleset_fd = request.landlock_ruleset.get();
  plan.seccomp = &seccomp;
  plan.capabilities = &request.capabilities;
  std::vector<const char*> writable;
  for (const std::string& directory : request.view.writable) writable.push_back(directory.c_str());
  plan.view = {request.view.enabled, request.view.uid_map.c_str(), request.view.gid_map.c_str(),
               writable.data(), static_cast<int>(writable.size())};

  pid_t pid = ::fork();
  if (pid < 0) return Error::FromErrno("fork");
  if (pid == 0) RunChild(plan);

  error_pipe->write_end.reset();
  LaunchedChild child;
  child.pid = pid;
  if (piped) {
    child.stdin_fd = std::move(stdio[0].write_end);
    child.stdout_fd = std::move(stdio[1].read_end);
    child.stderr_fd = std::move(stdio[2].read_end);
  }
  // The child's ends close here, so an exit of the child reads as end of file.
  for (Pipe& pipe : stdio) {
    pipe.read_end.reset();
    pipe.write_end.reset();
  }
  if (Status executed = AwaitExec(error_pipe->read_end.get(), pid); !executed) {
    return executed.error();
  }
  return child;
}

}  // namespace bravebot
