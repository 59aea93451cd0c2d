#include "supervisor/confined_server.h"

#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <thread>

#include "confine/digest.h"
#include "launcher/filesystem_view.h"
#include "launcher/landlock_ruleset.h"
#include "supervisor/server_directories.h"
#include "supervisor/session_plan.h"

namespace bravebot {
namespace {

std::vector<std::string> EnvironmentWords(const Reach& reach) {
  std::vector<std::string> words;
  for (const ReachVariable& variable : reach.environment) {
    words.push_back(variable.name + "=" + variable.value);
  }
  return words;
}

std::vector<std::string> WritableDirectories(const Reach& reach) {
  std::vector<std::string> writable;
  for (const ReachPath& path : reach.paths) {
    if (path.access == PathAccess::kReadWriteExecute && !path.file_only) {
      writable.push_back(path.path);
    }
  }
  return writable;
}

int ShellStatus(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace

Result<Confinement> PlanConfinement(const Declaration& declaration,
                                    const ServerStartOptions& options,
                                    const std::string& temporary_directory) {
  if (declaration.transport != Transport::kStdio) {
    return Error(ErrorCode::kRefused, declaration.alias +
                                          " is a service somewhere else: nothing of it runs "
                                          "here to confine");
  }
  ReachInputs inputs;
  inputs.fs = options.fs;
  inputs.getenv = options.getenv;
  inputs.user_home = options.user_home;
  inputs.profile = {options.profile->path(), options.profile->resolved_path()};
  inputs.system_temporary_root = options.system_temporary_root;
  inputs.temporary_directory = temporary_directory;
  Result<Reach> reach = ComputeReach(declaration, inputs);
  if (!reach) return reach.error();
  if (!options.program_override.empty()) {
    reach->paths.push_back({options.program_override, PathAccess::kReadExecute, true,
                            "the probe of bravebot-mcp reach --probe"});
    reach->program = options.program_override;
    reach->argv = options.argv_override(*reach);
  }
  LandlockPlan plan = PlanLandlock(*reach, ProbeLandlockAbi());
  if (!UserNamespacesAvailable()) {
    plan.unkept_promises.push_back(
        "a file you own outside its reach can have its mode, owner, times and attributes "
        "changed: this machine does not allow user namespaces, which the read-only view of the "
        "filesystem needs, and Landlock has no right for them");
  }
  return Confinement{std::move(*reach), std::move(plan)};
}

Result<ConfinedServer> ConfinedServer::Start(const Declaration& declaration,
                                             const ServerStartOptions& options) {
  // Refused by the administrator: nothing is made for it, not even its home.
  if (options.policy) {
    ManagedDecision decision =
        AdministratorDecision(*options.policy, declaration, options.getenv, *options.fs);
    if (!decision.allowed) {
      return Error(ErrorCode::kRefused, ManagedRefusalSentence(declaration.alias, decision));
    }
  }
  Result<std::string> home = PrepareServerHome(*options.profile, ComputeDigest(declaration).hex);
  if (!home) return home.error();
  Result<std::string> run_directory = MakeRunDirectory(options.system_temporary_root);
  if (!run_directory) return run_directory.error();
  // From here on, a failure removes the run directory.
  auto fail = [&](const Error& error) -> Result<ConfinedServer> {
    RemoveRunDirectory(*run_directory);
    return error;
  };

  Result<Confinement> confinement = PlanConfinement(declaration, options, *run_directory);
  if (!confinement) return fail(confinement.error());
  if (confinement->landlock.abi == 0) {
    return fail(Error(ErrorCode::kRefused, declaration.alias +
                                               " was not started: this kernel has no Landlock, so "
                                               "nothing of its reach could be enforced"));
  }
  Result<UniqueFd> ruleset = CreateLandlockRuleset(confinement->landlock);
  if (!ruleset) return fail(ruleset.error());
  // The same filter for every server: compiled once, on the first start.
  static const Result<SeccompProgram> seccomp = BuildSeccompProgram();
  if (!seccomp) return fail(seccomp.error());

  LaunchRequest request;
  request.program = confinement->reach.program;
  request.argv = confinement->reach.argv;
  request.environment = EnvironmentWords(confinement->reach);
  request.working_directory = confinement->reach.working_directory;
  request.landlock_ruleset = std::move(*ruleset);
  request.seccomp = *seccomp;
  request.capabilities = PlanCapabilities();
  request.view = PlanFilesystemView(WritableDirectories(confinement->reach));
  // In its own user namespace it holds every capability there: drop them too.
  if (request.view.enabled) request.capabilities.drop = true;
  request.stdio = options.stdio;
  Result<LaunchedChild> child = Launch(request);
  if (!child) return fail(child.error());
  return ConfinedServer(std::move(*child), std::move(*confinement), std::move(*run_directory));
}

ConfinedServer::ConfinedServer(ConfinedServer&& other) noexcept
    : child_(std::move(other.child_)),
      confinement_(std::move(other.confinement_)),
      run_directory_(std::move(other.run_directory_)),
      exit_status_(other.exit_status_) {
  other.child_.pid = -1;
  other.run_directory_.clear();
}

ConfinedServer::~ConfinedServer() {
  if (child_.pid > 0) Stop(std::chrono::milliseconds(500));
}

std::optional<int> ConfinedServer::WaitFor(std::chrono::milliseconds timeout) {
  if (exit_status_) return exit_status_;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  // A pidfd becomes readable the moment the process ends, so the wait ends
  // then and not at the next tick of a polling loop.
  UniqueFd process(static_cast<int>(::syscall(SYS_pidfd_open, child_.pid, 0)));
  for (;;) {
    int status = 0;
    pid_t done = ::waitpid(child_.pid, &status, WNOHANG);
    if (done == child_.pid) {
      exit_status_ = ShellStatus(status);
      return exit_status_;
    }
    if (done < 0 && errno != EINTR) return std::nullopt;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::nullopt;
    if (process.valid()) {
      struct pollfd ended = {process.get(), POLLIN, 0};
      ::poll(&ended, 1, static_cast<int>(left.count()));
    } else {
      std::this_thread::sleep_for(std::min(left, std::chrono::milliseconds(10)));
    }
  }
}

int ConfinedServer::Stop(std::chrono::milliseconds grace) {
  if (child_.pid <= 0) return exit_status_.value_or(-1);
  CloseInput();
  std::optional<int> status = WaitFor(grace);
  // The server leads a process group: whatever it started goes with it.
  ::kill(-child_.pid, SIGTERM);
  if (!status) status = WaitFor(grace);
  ::kill(-child_.pid, SIGKILL);
  if (!status) status = WaitFor(std::chrono::milliseconds(5000));
  // Its output descriptors stay open until this object goes: a reader of its
  // standard error may still be draining what it wrote last.
  child_.pid = -1;
  if (!run_directory_.empty()) RemoveRunDirectory(run_directory_);
  run_directory_.clear();
  return status.value_or(-1);
}

}  // namespace bravebot
