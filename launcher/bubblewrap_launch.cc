#include "launcher/bubblewrap_launch.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "launcher/bubblewrap_child.h"
#include "launcher/bubblewrap_program.h"
#include "launcher/child_pipes.h"
#include "launcher/clone_sharing_memory.h"
#include "launcher/sealed_memory_file.h"
#include "launcher/verified_path.h"

namespace bravebot {
namespace {

// Opens every bind's path without following links. A path gone since the
// reach was computed is left out, as Landlock leaves out its rule; a path
// that became a link is refused.
Result<std::vector<UniqueFd>> OpenBinds(BubblewrapPlan& plan) {
  std::vector<UniqueFd> fds;
  std::vector<BubblewrapBind> found;
  for (BubblewrapBind& bind : plan.binds) {
    Result<UniqueFd> fd = OpenWithoutLinks(bind.path);
    if (!fd) {
      if (fd.error().errno_value() == ENOENT) continue;
      return fd.error();
    }
    fds.push_back(std::move(*fd));
    found.push_back(std::move(bind));
  }
  plan.binds = std::move(found);
  return fds;
}

// Moves `fd` above 0, 1 and 2, where the child puts the server's standard
// streams (a starter whose own were closed gets its first descriptors there).
Status AboveStandardStreams(UniqueFd& fd) {
  if (fd.get() > 2) return {};
  UniqueFd moved(::fcntl(fd.get(), F_DUPFD_CLOEXEC, 3));
  if (!moved.valid()) return Error::FromErrno("move a descriptor for bwrap");
  fd = std::move(moved);
  return {};
}

// The server's pid as bwrap says it on its status pipe ({"child-pid": N,
// ...}, written once it has made the server's process), opened as a pidfd
// and checked to be bwrap's child still: invalid where bwrap said nothing
// (it failed first) or the server has ended.
UniqueFd OpenServerPidfd(int status_fd, pid_t bwrap) {
  std::string said;
  char buffer[256];
  while (said.find('\n') == std::string::npos && said.size() < 4096) {
    ssize_t got = ::read(status_fd, buffer, sizeof(buffer));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return UniqueFd();
    said.append(buffer, static_cast<size_t>(got));
  }
  constexpr std::string_view kChildPid = "\"child-pid\":";
  const size_t at = said.find(kChildPid);
  if (at == std::string::npos) return UniqueFd();
  const long server = std::strtol(said.c_str() + at + kChildPid.size(), nullptr, 10);
  if (server <= 1) return UniqueFd();
  UniqueFd pidfd(static_cast<int>(::syscall(SYS_pidfd_open, static_cast<pid_t>(server), 0)));
  if (!pidfd.valid()) return UniqueFd();
  // The pidfd names one process for good: once it is known to be bwrap's
  // child and running, a pid used again cannot make it another's.
  std::ifstream stat("/proc/" + std::to_string(server) + "/stat");
  std::string line;
  std::getline(stat, line);
  const size_t close = line.rfind(')');
  if (close == std::string::npos) return UniqueFd();
  // After the name: the state, then the parent's pid.
  std::istringstream fields(line.substr(close + 1));
  std::string state;
  long parent = 0;
  fields >> state >> parent;
  struct pollfd ended = {pidfd.get(), POLLIN, 0};
  if (parent != bwrap || ::poll(&ended, 1, 0) != 0) return UniqueFd();
  return pidfd;
}

}  // namespace

Result<LaunchedChild> LaunchInBubblewrap(const BubblewrapLaunchRequest& request) {
  if (!ProbeBubblewrapOnce().usable) {
    return Error(ErrorCode::kNotStarted, ProbeBubblewrapOnce().why_not);
  }
  BubblewrapPlan plan = request.plan;
  BRAVEBOT_ASSIGN_OR_RETURN(std::vector<UniqueFd> bind_fds, OpenBinds(plan));
  const std::string_view filter(reinterpret_cast<const char*>(request.seccomp.instructions.data()),
                                request.seccomp.instructions.size() * sizeof(struct sock_filter));
  BRAVEBOT_ASSIGN_OR_RETURN(UniqueFd seccomp_file, SealedMemoryFile("bravebot-seccomp", filter));
  BRAVEBOT_RETURN_IF_ERROR(AboveStandardStreams(seccomp_file));
  std::vector<int> binds;
  for (UniqueFd& fd : bind_fds) {
    BRAVEBOT_RETURN_IF_ERROR(AboveStandardStreams(fd));
    binds.push_back(fd.get());
  }
  BRAVEBOT_ASSIGN_OR_RETURN(Pipe status_pipe, MakePipe());
  UniqueFd status_write_end = std::move(status_pipe.write_end);
  BRAVEBOT_RETURN_IF_ERROR(AboveStandardStreams(status_write_end));
  const std::string block =
      BubblewrapArgumentBlock(plan, {binds, seccomp_file.get(), status_write_end.get()});
  BRAVEBOT_ASSIGN_OR_RETURN(UniqueFd arguments_file,
                            SealedMemoryFile("bravebot-bwrap-arguments", block));
  BRAVEBOT_RETURN_IF_ERROR(AboveStandardStreams(arguments_file));
  std::vector<std::string> words = BubblewrapCommandLine(plan, arguments_file.get());
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  std::vector<int> given = binds;
  given.push_back(seccomp_file.get());
  given.push_back(arguments_file.get());
  given.push_back(status_write_end.get());

  UniqueFd parent(static_cast<int>(::syscall(SYS_pidfd_open, ::getpid(), 0)));
  if (!parent.valid()) return Error::FromErrno("open a pidfd on this process");
  BRAVEBOT_ASSIGN_OR_RETURN(Pipe error_pipe, MakePipe());
  BRAVEBOT_RETURN_IF_ERROR(AboveStandardStreams(error_pipe.write_end));
  Pipe stdio[3];
  const bool piped = request.stdio == ChildStdio::kPipes;
  if (piped) {
    for (Pipe& pipe : stdio) {
      BRAVEBOT_ASSIGN_OR_RETURN(Pipe made, MakePipe());
      pipe = std::move(made);
      // The child's ends must not sit on 0, 1 or 2 before it puts them there.
      BRAVEBOT_RETURN_IF_ERROR(AboveStandardStreams(pipe.read_end));
      BRAVEBOT_RETURN_IF_ERROR(AboveStandardStreams(pipe.write_end));
    }
  }
  BubblewrapChildPlan child_plan{};
  child_plan.parent_pidfd = parent.get();
  child_plan.bwrap = kBubblewrapPath;
  child_plan.argv = argv.data();
  child_plan.stdio_fds[0] = piped ? stdio[0].read_end.get() : -1;
  child_plan.stdio_fds[1] = piped ? stdio[1].write_end.get() : -1;
  child_plan.stdio_fds[2] = piped ? stdio[2].write_end.get() : -1;
  child_plan.error_fd = error_pipe.write_end.get();
  child_plan.given_fds = given.data();
  child_plan.given_count = static_cast<int>(given.size());

  pid_t pid = CloneSharingMemory(0, RunBubblewrapChild, &child_plan);
  if (pid < 0) return Error::FromErrno("start bwrap", -pid);

  error_pipe.write_end.reset();
  LaunchedChild child;
  child.pid = pid;
  // bwrap's own PID namespace, which ends with bwrap (--die-with-parent).
  child.in_pid_namespace = true;
  KeepParentEnds(stdio, child.stdin_fd, child.stdout_fd, child.stderr_fd);
  status_write_end.reset();
  BRAVEBOT_RETURN_IF_ERROR(AwaitExec(error_pipe.read_end.get(), pid));
  child.server_pidfd = OpenServerPidfd(status_pipe.read_end.get(), pid);
  // Kept open while bwrap runs: it writes its exit there last, and a closed
  // pipe would end it with SIGPIPE instead of the server's status.
  child.status_fd = std::move(status_pipe.read_end);
  return child;
}

}  // namespace bravebot
