#include "supervisor/servers/confined_server.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <mutex>
#include <set>

#include "confine/digest.h"
#include "confine/paths.h"
#include "supervisor/policy/session_plan.h"
#include "supervisor/servers/confined_launch.h"
#include "supervisor/servers/stray_processes.h"
#include "supervisor/store/server_directories.h"

namespace bravebot {
namespace {

// The servers this process runs, so that ending one server's strays never
// ends another server.
class ServerRegistry {
 public:
  void Add(pid_t pid) {
    std::lock_guard<std::mutex> lock(mutex_);
    pids_.insert(pid);
  }
  void Remove(pid_t pid) {
    std::lock_guard<std::mutex> lock(mutex_);
    pids_.erase(pid);
  }
  bool Contains(pid_t pid) {
    std::lock_guard<std::mutex> lock(mutex_);
    return pids_.contains(pid);
  }

 private:
  std::mutex mutex_;
  std::set<pid_t> pids_;
};

ServerRegistry& RunningServers() {
  static ServerRegistry registry;
  return registry;
}

int ShellStatus(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace

Result<ConfinedServer> ConfinedServer::Start(const Declaration& declaration,
                                             const ServerStartOptions& options) {
  // The administrator decides on the very program the reach runs: found once.
  Result<std::string> program = LocateProgram(declaration, options.getenv, *options.fs);
  if (options.policy) {
    ManagedDecision decision = Decide(*options.policy, declaration, program ? *program : "");
    // Refused by the administrator: nothing is made for it, not even its home.
    if (!decision.allowed) {
      return Error(ErrorCode::kNotStarted, ManagedRefusalSentence(declaration.alias, decision));
    }
  }
  if (!program) return program.error();
  if (!options.incognito) {
    BRAVEBOT_ASSIGN_OR_RETURN(std::string home,
                              PrepareServerHome(*options.profile, ComputeDigest(declaration).hex));
  }
  BRAVEBOT_ASSIGN_OR_RETURN(RunDirectory run, MakeRunDirectory(options.system_temporary_root));
  const std::string run_directory = run.path;
  // From here on, a failure removes the run directory.
  auto fail = [&](const Error& error) -> Result<ConfinedServer> {
    RemoveRunDirectory(run_directory);
    return error;
  };
  if (options.incognito && ::mkdir(JoinPath(run_directory, "home").c_str(), 0700) != 0) {
    return fail(Error::FromErrno("create its home in " + run_directory));
  }

  Result<Reach> computed = ComputeServerReach(declaration, options, run_directory, *program);
  if (!computed) return fail(computed.error());
  // The namespaces this process learned the machine allows; before it has,
  // the hope that it allows them all, as most machines do. The launch makes
  // every namespace planned or fails, so a hope never starts a server with
  // less than its plan: where it fails, the probe learns what the machine
  // allows (a child of its own, which most starts so never make) and the
  // start is planned and launched again on that.
  const std::optional<IsolationSupport> answered = AnsweredIsolation();
  const KernelFacts hoped{LandlockAbiHere(), answered.value_or(IsolationSupport{true, true, ""})};
  Result<LaunchedConfinement> launched = ConfineAndLaunch(
      answered ? std::move(*computed) : Reach(*computed), options, declaration.alias, hoped);
  if (!launched && !answered) {
    const KernelFacts probed = ProbeKernelOnce();
    Result<LaunchedConfinement> again =
        ConfineAndLaunch(std::move(*computed), options, declaration.alias, probed);
    // Planned alike, a second failure says nothing new: the first names the
    // cause (a program that is not there, say), not the probe's.
    if (again || probed.isolation != hoped.isolation) launched = std::move(again);
  }
  if (!launched) return fail(launched.error());
  LaunchedChild& child = launched->child;
  RunningServers().Add(child.pid);
  // Our child, not yet reaped: the number cannot name another process.
  UniqueFd pidfd(static_cast<int>(::syscall(SYS_pidfd_open, child.pid, 0)));
  const int pidfd_errno = errno;
  ConfinedServer server(std::move(child), std::move(pidfd), std::move(launched->confinement),
                        std::move(run));
  // Without it, its end could not be waited for: it is not kept running (it
  // is killed as `server` goes).
  if (!server.pidfd_.valid()) return Error::FromErrno("open a pidfd of the server", pidfd_errno);
  return server;
}

ConfinedServer::ConfinedServer(ConfinedServer&& other) noexcept
    : child_(std::move(other.child_)),
      pidfd_(std::move(other.pidfd_)),
      confinement_(std::move(other.confinement_)),
      run_directory_(std::move(other.run_directory_)),
      exit_status_(other.exit_status_) {
  other.child_.pid = -1;
  other.run_directory_ = {};
}

ConfinedServer::~ConfinedServer() {
  if (child_.pid <= 0) return;
  if (!Reap()) {
    Signal(SIGKILL);
    int status = 0;
    pid_t done;
    do {
      done = ::waitpid(child_.pid, &status, 0);
    } while (done < 0 && errno == EINTR);
    if (done == child_.pid) exit_status_ = ShellStatus(status);
  }
  Finish();
}

std::optional<int> ConfinedServer::Reap() {
  if (exit_status_ || child_.pid <= 0) return exit_status_;
  int status = 0;
  pid_t done;
  do {
    done = ::waitpid(child_.pid, &status, WNOHANG);
  } while (done < 0 && errno == EINTR);
  if (done == child_.pid) exit_status_ = ShellStatus(status);
  return exit_status_;
}

void ConfinedServer::Signal(int signal) {
  if (child_.pid <= 0 || exit_status_) return;
  // Under bubblewrap, to the server itself: bwrap would end on SIGTERM and
  // kill the server unwarned. The server is its PID namespace's first
  // process: SIGKILL from outside ends it and the namespace with it, whatever
  // it did to its death signal; bwrap gets it too.
  if (child_.server_pidfd.valid() &&
      ::syscall(SYS_pidfd_send_signal, child_.server_pidfd.get(), signal, nullptr, 0) == 0 &&
      signal != SIGKILL) {
    return;
  }
  // Ending its first process ends its PID namespace and all in it.
  ::kill(-child_.pid, signal);
}

void ConfinedServer::Finish(Removal removal) {
  if (child_.pid > 0) {
    RunningServers().Remove(child_.pid);
    // Without a PID namespace, EndStrays finds what its group and its
    // descendants left.
    if (!child_.in_pid_namespace) {
      EndStrays(child_.pid, [](pid_t pid) { return RunningServers().Contains(pid); });
    }
    // Its output descriptors stay open until this object goes: a reader of
    // its standard error may still be draining what it wrote last.
    child_.pid = -1;
  }
  // Removed while still held, so that no sweep takes it meanwhile; nothing
  // of the server is left to write into it (ended above, or with its PID
  // namespace).
  if (removal == Removal::kInBackground) {
    RemoveRunDirectoryInBackground(std::move(run_directory_));
  } else if (!run_directory_.path.empty()) {
    RemoveRunDirectory(run_directory_.path);
  }
  run_directory_ = {};
}

}  // namespace bravebot
