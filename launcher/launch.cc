#include "launcher/launch.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include "base/own_programs.h"
#include "launcher/child.h"
#include "launcher/child_pipes.h"
#include "launcher/clone_sharing_memory.h"
#include "launcher/sealed_memory_file.h"

namespace bravebot {
namespace {

std::vector<char*> PointerArray(std::vector<std::string>& words) {
  std::vector<char*> pointers;
  pointers.reserve(words.size() + 1);
  for (std::string& word : words) pointers.push_back(word.data());
  pointers.push_back(nullptr);
  return pointers;
}

std::vector<VerifiedPathStep> Steps(const std::vector<VerifiedPath>& paths) {
  std::vector<VerifiedPathStep> steps;
  for (const VerifiedPath& path : paths)
    steps.push_back({path.path.c_str(), path.device, path.inode});
  return steps;
}

// The hidden places as the child takes them: arrays of plain data, and
// room for its descriptors, all made before it is started.
struct SocketMaskSteps {
  std::vector<PlaceToHideStep> places;
  std::vector<BindBackStep> bound_back;
  std::vector<int> scratch;

  SocketMaskStep Step() { return {places.data(), static_cast<int>(places.size()), scratch.data()}; }
};

SocketMaskSteps StepsOf(const std::vector<PlaceToHide>& hidden) {
  SocketMaskSteps steps;
  size_t count = 0;
  for (const PlaceToHide& place : hidden) count += place.bound_back.size();
  // Reserved, so that the pointers the places hold stay where they point.
  steps.bound_back.reserve(count);
  steps.scratch.resize(count + 1);
  for (const PlaceToHide& place : hidden) {
    const BindBackStep* first = steps.bound_back.data() + steps.bound_back.size();
    for (const BindBack& back : place.bound_back) {
      steps.bound_back.push_back({{back.source.path.c_str(), back.source.device, back.source.inode},
                                  back.relative.c_str(),
                                  back.is_file});
    }
    steps.places.push_back({{place.place.path.c_str(), place.place.device, place.place.inode},
                            first,
                            static_cast<int>(place.bound_back.size())});
  }
  return steps;
}

// NAME=value strings, each ended by NUL, as bravebot-mcp-init reads them.
std::string EnvironmentBlock(const std::vector<std::string>& environment) {
  std::string block;
  for (const std::string& variable : environment) block.append(variable).push_back('\0');
  return block;
}

}  // namespace

int InitProgramFd() {
  static const int fd = [] {
    const std::string path = ProgramBesideThisOne("bravebot-mcp-init");
    return path.empty() ? -1 : ::open(path.c_str(), O_PATH | O_CLOEXEC);
  }();
  return fd;
}

Result<LaunchedChild> Launch(LaunchRequest& request) {
  if (!request.landlock_ruleset.valid() && !request.without_landlock) {
    return Error(ErrorCode::kRefused, "no server is started without its Landlock ruleset");
  }
  const IsolationPlan& isolation = request.isolation;
  if (isolation.pid_namespace && InitProgramFd() < 0) {
    return Error(ErrorCode::kNotFound,
                 "bravebot-mcp-init, the first process of every server's PID namespace, is not "
                 "beside " +
                     ProgramBesideThisOne("") + "; reinstall bravebot-mcp");
  }
  std::vector<char*> argv = PointerArray(request.argv);
  std::vector<char*> envp = PointerArray(request.environment);
  std::string init_name = "bravebot-mcp-init";
  std::string landlock_flag =
      request.landlock_ruleset.valid() ? kInitWithLandlock : kInitWithoutLandlock;
  std::vector<char*> init_argv = {init_name.data(), landlock_flag.data(), request.program.data()};
  init_argv.insert(init_argv.end(), argv.begin(), argv.end());
  struct sock_fprog seccomp = {static_cast<unsigned short>(request.seccomp.instructions.size()),
                               request.seccomp.instructions.data()};
  UniqueFd seccomp_file;
  UniqueFd environment_file;
  if (isolation.pid_namespace) {
    const std::string_view filter(reinterpret_cast<const char*>(seccomp.filter),
                                  seccomp.len * sizeof(struct sock_filter));
    BRAVEBOT_ASSIGN_OR_RETURN(seccomp_file, SealedMemoryFile("bravebot-seccomp", filter));
    BRAVEBOT_ASSIGN_OR_RETURN(
        environment_file,
        SealedMemoryFile("bravebot-environment", EnvironmentBlock(request.environment)));
  }
  SocketMaskSteps socket_mask = StepsOf(request.hidden_places);
  std::vector<VerifiedPathStep> writable = Steps(request.view.writable);
  std::vector<int> view_scratch(2 * writable.size() + 1);

  UniqueFd parent(static_cast<int>(::syscall(SYS_pidfd_open, ::getpid(), 0)));
  if (!parent.valid()) return Error::FromErrno("open a pidfd on this process");
  BRAVEBOT_ASSIGN_OR_RETURN(Pipe error_pipe, MakePipe());
  Pipe stdio[3];
  const bool piped = request.stdio == ChildStdio::kPipes;
  if (piped) {
    for (Pipe& pipe : stdio) {
      BRAVEBOT_ASSIGN_OR_RETURN(Pipe made, MakePipe());
      pipe = std::move(made);
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
  plan.error_fd = error_pipe.write_end.get();
  plan.ruleset_fd = request.landlock_ruleset.valid() ? request.landlock_ruleset.get() : -1;
  plan.seccomp = &seccomp;
  plan.capabilities = &request.capabilities;
  plan.isolation = {isolation.user_namespace, isolation.pid_namespace, isolation.uid_map.c_str(),
                    isolation.gid_map.c_str(), isolation.proc_access};
  plan.socket_mask = socket_mask.Step();
  plan.view = {request.view.enabled, writable.data(), static_cast<int>(writable.size()),
               view_scratch.data()};
  plan.init_program_fd = isolation.pid_namespace ? InitProgramFd() : -1;
  plan.init_argv = init_argv.data();
  plan.seccomp_fd = seccomp_file.valid() ? seccomp_file.get() : -1;
  plan.environment_fd = environment_file.valid() ? environment_file.get() : -1;

  // Without a PID namespace, what the server leaves behind comes to us, to be
  // found and ended when it stops.
  if (!isolation.pid_namespace && ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
    return Error::FromErrno("become a subreaper");
  }
  // The child is the first process of its PID namespace.
  pid_t pid = CloneSharingMemory(static_cast<int>(CloneFlagsOf(isolation)), RunChild, &plan);
  if (pid < 0) return Error::FromErrno("start the confined child", -pid);

  error_pipe.write_end.reset();
  LaunchedChild child;
  child.pid = pid;
  child.in_pid_namespace = isolation.pid_namespace;
  KeepParentEnds(stdio, child.stdin_fd, child.stdout_fd, child.stderr_fd);
  BRAVEBOT_RETURN_IF_ERROR(AwaitExec(error_pipe.read_end.get(), pid));
  return child;
}

}  // namespace bravebot
