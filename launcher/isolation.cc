#include "launcher/isolation.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <mutex>
#include <optional>
#include <thread>

#include "profiles/landlock_abi.h"

namespace bravebot {
namespace {

int WriteWhole(const char* path, const char* text) {
  int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  size_t length = std::strlen(text);
  ssize_t written = ::write(fd, text, length);
  int error = written == static_cast<ssize_t>(length) ? 0 : (written < 0 ? errno : EIO);
  ::close(fd);
  return error;
}

// Writes the maps of the user namespace just entered. A non-dumpable process
// (mcp-run, bravebot-mcp and the supervisor make themselves so) finds its
// /proc/self files owned by root and may not open them. A child that shares
// its starter's memory finds it dumpable already (launch.cc keeps it so
// while any child starts, since dumpability belongs to the memory); the
// probe's child, a copy, is dumpable for these three writes only, as runc's
// nsexec is, then as before.
int WriteOwnMaps(const IsolationStep& step) {
  const int dumpable = ::prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
  if (dumpable == 0 && ::prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) != 0) return errno;
  // gid_map may be written only once setgroups is denied.
  int error = WriteWhole("/proc/self/setgroups", "deny");
  if (error == 0) error = WriteWhole("/proc/self/uid_map", step.uid_map);
  if (error == 0) error = WriteWhole("/proc/self/gid_map", step.gid_map);
  if (dumpable == 0 && ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0 && error == 0) error = errno;
  return error;
}

enum class Answer { kAllowed, kRefused, kUnknown };

struct Tried {
  Answer answer;
  int error;  // what failed, where it did
};

// True where `error` says the kernel will not, rather than cannot now.
bool KernelRefuses(int error) {
  if (error == EPERM || error == EACCES || error == EINVAL || error == EUSERS) return true;
  if (error != ENOSPC) return false;
  // ENOSPC is a refusal only where no user namespace is allowed at all; a
  // count reached is for want of resources.
  std::ifstream limit("/proc/sys/user/max_user_namespaces");
  long most = -1;
  return limit >> most && most == 0;
}

// Starts a child in `flags`' namespaces that makes `step` and reports by its
// exit status what came of it: 0 every step worked, else the errno of the
// step that failed.
Tried ChildManages(unsigned long flags, const IsolationStep& step) {
  pid_t pid =
      static_cast<pid_t>(::syscall(SYS_clone, flags | SIGCHLD, nullptr, nullptr, nullptr, nullptr));
  if (pid < 0) {
    const int error = errno;
    return {KernelRefuses(error) ? Answer::kRefused : Answer::kUnknown, error};
  }
  if (pid == 0) {
    int error = EnterUserNamespace(step);
    if (error == 0 && step.pid_namespace) error = MountOwnProc(step, -1);
    ::_exit(error > 0 && error < 256 ? error : (error == 0 ? 0 : EIO));
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status)) return {Answer::kUnknown, EINTR};
  const int error = WEXITSTATUS(status);
  if (error == 0) return {Answer::kAllowed, 0};
  return {KernelRefuses(error) ? Answer::kRefused : Answer::kUnknown, error};
}

// Tries again, briefly, what failed for want of resources.
Tried ChildManagesWithin(unsigned long flags, const IsolationStep& step) {
  Tried tried = ChildManages(flags, step);
  for (int again = 0; again < 4 && tried.answer == Answer::kUnknown; ++again) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20 << again));
    tried = ChildManages(flags, step);
  }
  return tried;
}

std::string Unknown(const char* what, int error) {
  return std::string(what) + " failed: " + std::strerror(error);
}

IsolationSupport ProbeNow() {
  IsolationPlan plan = PlanIsolation({true, true, ""}, 0);
  IsolationStep step{true, true, plan.uid_map.c_str(), plan.gid_map.c_str(), 0};
  // Every namespace at once first, which is what most machines allow: one
  // child, not two, for the common answer (a fork is most of a probe's cost).
  const unsigned long user_flags = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWIPC;
  Tried every = ChildManagesWithin(user_flags | CLONE_NEWPID, step);
  if (every.answer == Answer::kAllowed) return {true, true, ""};
  if (every.answer == Answer::kUnknown) {
    return {false, false, Unknown("starting a child in namespaces of its own", every.error)};
  }
  step.pid_namespace = false;
  Tried user = ChildManagesWithin(user_flags, step);
  if (user.answer == Answer::kUnknown) {
    return {false, false, Unknown("starting a child in a user namespace", user.error)};
  }
  return {user.answer == Answer::kAllowed, false, ""};
}

}  // namespace

IsolationPlan PlanIsolation(IsolationSupport support, uint64_t proc_access) {
  IsolationPlan plan;
  plan.user_namespace = support.user_namespace;
  plan.pid_namespace = support.user_namespace && support.pid_namespace;
  const std::string uid = std::to_string(::geteuid());
  const std::string gid = std::to_string(::getegid());
  plan.uid_map = uid + " " + uid + " 1\n";
  plan.gid_map = gid + " " + gid + " 1\n";
  plan.proc_access = proc_access;
  return plan;
}

namespace {

std::mutex answered_mutex;
std::optional<IsolationSupport> answered;

}  // namespace

IsolationSupport ProbeIsolation() {
  std::lock_guard<std::mutex> lock(answered_mutex);
  if (answered) return *answered;
  IsolationSupport support = ProbeNow();
  if (support.unknown.empty()) answered = support;
  return support;
}

std::optional<IsolationSupport> AnsweredIsolation() {
  std::lock_guard<std::mutex> lock(answered_mutex);
  return answered;
}

unsigned long CloneFlagsOf(const IsolationPlan& plan) {
  unsigned long flags = 0;
  // An IPC namespace too: System V segments, queues and semaphores are no
  // files, so no Landlock rule keeps a server from another program's.
  if (plan.user_namespace) flags |= CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWIPC;
  if (plan.pid_namespace) flags |= CLONE_NEWPID;
  return flags;
}

int EnterUserNamespace(const IsolationStep& step) {
  if (!step.user_namespace) return 0;
  if (int error = WriteOwnMaps(step); error != 0) return error;
  // Nothing done here may reach the mounts of anything outside.
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return errno;
  return 0;
}

int MountOwnProc(const IsolationStep& step, int ruleset_fd) {
  if (!step.pid_namespace) return 0;
  if (::mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0) {
    return errno;
  }
  if (ruleset_fd < 0 || step.proc_access == 0) return 0;
  int proc = ::open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (proc < 0) return errno;
  landlock::PathBeneathAttr beneath{step.proc_access, proc};
  int error =
      ::syscall(SYS_landlock_add_rule, ruleset_fd, landlock::kRulePathBeneath, &beneath, 0) == 0
          ? 0
          : errno;
  ::close(proc);
  return error;
}

}  // namespace bravebot
