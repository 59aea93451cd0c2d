#include "launcher/launch.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
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

std::vector<VerifiedPathStep> Steps(const std::vector<VerifiedPath>& paths) {
  std::vector<VerifiedPathStep> steps;
  for (const VerifiedPath& path : paths)
    steps.push_back({path.path.c_str(), path.device, path.inode});
  return steps;
}

}  // namespace

Result<LaunchedChild> Launch(LaunchRequest& request) {
  if (!request.landlock_ruleset.valid() && !request.without_landlock) {
    return Error(ErrorCode::kRefused, "no server is started without its Landlock ruleset");
  }
  std::vector<char*> argv = PointerArray(request.argv);
  std::vector<char*> envp = PointerArray(request.environment);
  struct sock_fprog seccomp = {static_cast<unsigned short>(request.seccomp.instructions.size()),
                               request.seccomp.instructions.data()};
  std::vector<VerifiedPathStep> writable = Steps(request.view.writable);
  std::vector<int> view_scratch(2 * writable.size() + 1);
  static const CommandLineRegions command_line = ReadCommandLineRegions();

  UniqueFd parent(static_cast<int>(::syscall(SYS_pidfd_open, ::getpid(), 0)));
  if (!parent.valid()) return Error::FromErrno("open a pidfd on this process");
  Result<Pipe> error_pipe = MakePipe();
  if (!error_pipe) return error_pipe.error();
  Pipe stdio[3];
  const bool piped = request.stdio == ChildStdio::kPipes;
  if (piped) {
    for (Pipe& pipe : stdio) {
      Result<Pipe> made = MakePipe();
      if (!made) return made.error();
      pipe = std::move(*made);
    }
  }
  ChildPlan plan{};
  plan.parent_pidfd = parent.get();
  plan.program = request.program.c_str();
  plan.argv = argv.data();
  plan.envp = envp.data();
  plan.working_directory = {request.working_directory.path.c_str(),
                            request.working_directory.device, request.working_directory.inode};
  plan.stdio_fds[0] = piped ? stdio[0].read_end.get() : -1;
  plan.stdio_fds[1] = piped ? stdio[1].write_end.get() : -1;
  plan.stdio_fds[2] = piped ? stdio[2].write_end.get() : -1;
  plan.error_fd = error_pipe->write_end.get();
  plan.ruleset_fd = request.landlock_ruleset.valid() ? request.landlock_ruleset.get() : -1;
  plan.seccomp = &seccomp;
  plan.capabilities = &request.capabilities;
  const IsolationPlan& isolation = request.isolation;
  plan.isolation = {isolation.user_namespace, isolation.pid_namespace, isolation.uid_map.c_str(),
                    isolation.gid_map.c_str(), isolation.proc_access};
  plan.view = {request.view.enabled, writable.data(), static_cast<int>(writable.size()),
               view_scratch.data()};
  plan.wipe = command_line;

  // Without a PID namespace, what the server leaves behind comes to us, to be
  // found and ended when it stops.
  if (!isolation.pid_namespace && ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
    return Error::FromErrno("become a subreaper");
  }
  // Like fork(), in the namespaces of the plan: the child is the first process
  // of its PID namespace.
  pid_t pid = static_cast<pid_t>(
      ::syscall(SYS_clone, CloneFlagsOf(isolation) | SIGCHLD, nullptr, nullptr, nullptr, nullptr));
  if (pid < 0) return Error::FromErrno("start the confined child");
  if (pid == 0) RunChild(plan);

  error_pipe->write_end.reset();
  LaunchedChild child;
  child.pid = pid;
  child.in_pid_namespace = isolation.pid_namespace;
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
