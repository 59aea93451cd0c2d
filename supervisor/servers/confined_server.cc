#include "supervisor/servers/confined_server.h"

#include <pwd.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <mutex>
#include <set>

#include "confine/digest.h"
#include "confine/paths.h"
#include "launcher/bubblewrap_launch.h"
#include "launcher/filesystem_view.h"
#include "launcher/landlock_ruleset.h"
#include "profiles/bubblewrap_links.h"
#include "profiles/compiled_seccomp.h"
#include "supervisor/policy/session_plan.h"
#include "supervisor/servers/stray_processes.h"
#include "supervisor/store/declaration_store.h"
#include "supervisor/store/server_directories.h"

namespace bravebot {
namespace {

std::vector<std::string> EnvironmentWords(const Reach& reach) {
  std::vector<std::string> words;
  for (const ReachVariable& variable : reach.environment) {
    words.push_back(variable.name + "=" + variable.value);
  }
  return words;
}

// A path as the Landlock rule's open found it, or found now; nothing where it
// is missing, since it grants nothing.
Result<std::optional<VerifiedPath>> IdentityOf(const std::string& path,
                                               const std::vector<VerifiedPath>& opened) {
  auto found = std::find_if(opened.begin(), opened.end(),
                            [&](const VerifiedPath& one) { return one.path == path; });
  if (found != opened.end()) return std::optional<VerifiedPath>(*found);
  VerifiedPath identity;
  Result<UniqueFd> fd = OpenWithoutLinks(path, &identity);
  if (!fd && fd.error().errno_value() == ENOENT) return std::optional<VerifiedPath>();
  if (!fd) return fd.error();
  return std::optional<VerifiedPath>(identity);
}

// The directories it may write, each as the Landlock rule's open found it
// (or found now, where no ruleset was made).
Result<std::vector<VerifiedPath>> WritableDirectories(const Reach& reach,
                                                      const std::vector<VerifiedPath>& opened) {
  std::vector<VerifiedPath> writable;
  for (const ReachPath& path : reach.paths) {
    if (path.access != PathAccess::kReadWriteExecute || path.file_only) continue;
    BRAVEBOT_ASSIGN_OR_RETURN(std::optional<VerifiedPath> identity, IdentityOf(path.path, opened));
    if (!identity) return Error::FromErrno("open " + path.path, ENOENT);
    writable.push_back(*identity);
  }
  return writable;
}

// The places of `mask`, each with what goes back beneath it, as found now.
Result<std::vector<PlaceToHide>> PlacesToHide(const SocketMaskPlan& mask,
                                              const std::vector<VerifiedPath>& opened) {
  std::vector<PlaceToHide> places;
  for (const HiddenPlace& hidden : mask.hidden) {
    BRAVEBOT_ASSIGN_OR_RETURN(std::optional<VerifiedPath> place, IdentityOf(hidden.path, opened));
    if (!place) continue;
    PlaceToHide to_hide{*place, {}};
    for (const BoundBackPath& back : hidden.bound_back) {
      BRAVEBOT_ASSIGN_OR_RETURN(std::optional<VerifiedPath> source, IdentityOf(back.path, opened));
      if (!source) continue;
      to_hide.bound_back.push_back(
          {*source, back.path.substr(hidden.path.size() + 1), back.is_file});
    }
    places.push_back(std::move(to_hide));
  }
  return places;
}

Result<VerifiedPath> FindVerified(const std::string& path,
                                  const std::vector<VerifiedPath>& writable) {
  for (const VerifiedPath& one : writable) {
    if (one.path == path) return one;
  }
  return Error(ErrorCode::kSystem, path + " is not among the directories the server may write");
}

// The running user's home as the password database has it ("" where it has
// none): HOME may name another, and others' sockets may be in either.
std::string AccountHome() {
  struct passwd entry;
  struct passwd* found = nullptr;
  std::vector<char> buffer(16384);
  if (::getpwuid_r(::geteuid(), &entry, buffer.data(), buffer.size(), &found) != 0 ||
      found == nullptr || found->pw_dir == nullptr) {
    return "";
  }
  return found->pw_dir;
}

// Every --dir mcp.json declares: each is a directory some server may write.
Result<std::vector<std::string>> DeclaredDirectories(const DeclarationStore& store) {
  Result<DeclarationFile> file = store.Read();
  if (!file) {
    return Error(file.error().code(),
                 "the directories other servers may write are not known, so nothing is started: " +
                     file.error().message());
  }
  std::vector<std::string> directories;
  for (const Declaration& declaration : file->declarations) {
    if (!declaration.directory.empty()) directories.push_back(declaration.directory);
  }
  return directories;
}

// The rights of the reach's /proc, for the /proc mounted in its PID namespace.
uint64_t ProcRights(const Reach& reach, int abi) {
  for (const ReachPath& path : reach.paths) {
    if (path.path == "/proc") return RightsFor(path.access, path.file_only, abi);
  }
  return 0;
}

void AddUnkeptIsolationPromises(const IsolationPlan& isolation,
                                std::vector<std::string>& promises) {
  if (!isolation.user_namespace) {
    promises.push_back(
        "a file you own outside its reach can have its mode, owner, times and attributes "
        "changed: this machine does not allow user namespaces, which the read-only view of the "
        "filesystem needs, and Landlock has no right for them");
  }
  if (!isolation.pid_namespace) {
    promises.push_back(
        "it sees the machine's processes and shares their PID namespace: this machine does not "
        "allow it one of its own, so what it leaves running is found and killed only when it "
        "stops");
  }
}

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

// The filter of a server in namespaces of its own, or in the machine's.
const Result<SeccompProgram>& SeccompFilter(bool in_namespaces) {
  return CompiledSeccompProgram({in_namespaces});
}

// Under bubblewrap the server is its PID namespace's first process: it keeps
// the death signal that ends it when bwrap ends.
const Result<SeccompProgram>& BubblewrapSeccompFilter() {
  return CompiledSeccompProgram({true, true});
}

// This kernel's Landlock ABI, asked once a process (a system call).
int LandlockAbi() {
  static const int abi = ProbeLandlockAbi();
  return abi;
}

// Our launcher's: namespaces, the read-only view, Landlock, seccomp last.
Result<LaunchedChild> LaunchUnderLandlock(const Confinement& confinement,
                                          const ServerStartOptions& options) {
  LaunchRequest request;
  std::vector<VerifiedPath> opened;
  if (options.layers.landlock) {
    Result<UniqueFd> ruleset = CreateLandlockRuleset(confinement.landlock, &opened);
    if (!ruleset) return ruleset.error();
    request.landlock_ruleset = std::move(*ruleset);
  } else {
    request.without_landlock = true;
  }
  const Result<SeccompProgram>& seccomp = SeccompFilter(confinement.isolation.user_namespace);
  if (!seccomp) return seccomp.error();
  const Reach& reach = confinement.reach;
  Result<std::vector<VerifiedPath>> writable = WritableDirectories(reach, opened);
  if (!writable) return writable.error();
  Result<VerifiedPath> working_directory = FindVerified(reach.working_directory, *writable);
  if (!working_directory) return working_directory.error();

  request.program = reach.program;
  request.argv = reach.argv;
  request.environment = EnvironmentWords(reach);
  request.working_directory = std::move(*working_directory);
  request.seccomp = *seccomp;
  request.capabilities = PlanCapabilities();
  request.isolation = confinement.isolation;
  if (confinement.socket_mask && options.layers.hide_socket_places) {
    Result<std::vector<PlaceToHide>> hidden = PlacesToHide(*confinement.socket_mask, opened);
    if (!hidden) return hidden.error();
    request.hidden_places = std::move(*hidden);
  }
  request.view = PlanFilesystemView(
      std::move(*writable), request.isolation.user_namespace && options.layers.read_only_view);
  // In its own user namespace it holds every capability there: drop them too.
  if (request.isolation.user_namespace) request.capabilities.drop = true;
  request.stdio = options.stdio;
  return Launch(request);
}

// bwrap's namespaces and binds, with our seccomp filter loaded last by bwrap.
Result<LaunchedChild> LaunchUnderBubblewrap(const Confinement& confinement,
                                            const ServerStartOptions& options) {
  const Result<SeccompProgram>& seccomp = BubblewrapSeccompFilter();
  if (!seccomp) return seccomp.error();
  BubblewrapLaunchRequest request{confinement.bubblewrap, *seccomp, options.stdio};
  return LaunchInBubblewrap(request);
}

struct LaunchedConfinement {
  Confinement confinement;
  LaunchedChild child;
};

// `reach` confined on a kernel that offers `kernel`, and launched so.
Result<LaunchedConfinement> ConfineAndLaunch(Reach reach, const ServerStartOptions& options,
                                             const std::string& alias, const KernelFacts& kernel) {
  BRAVEBOT_ASSIGN_OR_RETURN(Confinement confinement,
                            ConfineServerReach(std::move(reach), options, alias, kernel));
  if (confinement.backend.backend == Backend::kNone) {
    return Error(ErrorCode::kNotStarted,
                 alias + " was not started: " + confinement.backend.why_none);
  }
  BRAVEBOT_ASSIGN_OR_RETURN(LaunchedChild child, confinement.backend.backend == Backend::kBubblewrap
                                                     ? LaunchUnderBubblewrap(confinement, options)
                                                     : LaunchUnderLandlock(confinement, options));
  return LaunchedConfinement{std::move(confinement), std::move(child)};
}

}  // namespace

KernelFacts ProbeKernelOnce() { return {LandlockAbi(), ProbeIsolation()}; }

Status RequireKnownIsolation(const KernelFacts& kernel, const std::string& alias) {
  if (kernel.isolation.unknown.empty()) return {};
  return Error(ErrorCode::kNotStarted,
               alias +
                   " was not started: whether this machine allows the namespaces a server starts "
                   "in could not be learned (" +
                   kernel.isolation.unknown +
                   "), and nothing is started on a guess; try again once fewer processes run");
}

Result<Reach> ComputeServerReach(const Declaration& declaration, const ServerStartOptions& options,
                                 const std::string& temporary_directory,
                                 const std::string& program) {
  if (declaration.transport != Transport::kStdio) {
    return Error(ErrorCode::kRefused, declaration.alias +
                                          " is a service somewhere else: nothing of it runs "
                                          "here to confine");
  }
  BRAVEBOT_ASSIGN_OR_RETURN(std::vector<std::string> declared_directories,
                            DeclaredDirectories(DeclarationStore(*options.profile)));
  ReachInputs inputs;
  inputs.fs = options.fs;
  inputs.getenv = options.getenv;
  inputs.user_home = options.user_home;
  inputs.account_home = AccountHome();
  inputs.profile = {options.profile->path(), options.profile->resolved_path()};
  inputs.system_temporary_root = options.system_temporary_root;
  inputs.temporary_directory = temporary_directory;
  inputs.declared_directories = std::move(declared_directories);
  inputs.program = program;
  if (options.incognito) inputs.home = JoinPath(temporary_directory, "home");
  BRAVEBOT_ASSIGN_OR_RETURN(Reach reach, ComputeReach(declaration, inputs));
  if (!options.program_override.empty()) {
    reach.paths.push_back({options.program_override, PathAccess::kReadExecute, true,
                           "the probe of bravebot-mcp reach --probe"});
    reach.program = options.program_override;
    reach.argv = options.argv_override(reach);
  }
  return reach;
}

Confinement ConfineReach(Reach reach, const KernelFacts& kernel, bool namespaces,
                         BackendChoice backend, const std::vector<BubblewrapLink>& links) {
  LandlockPlan plan = PlanLandlock(reach, kernel.landlock_abi);
  if (backend.backend == Backend::kBubblewrap) {
    // bwrap's namespaces: its own user, mount, PID and IPC ones, whatever our
    // probe of the kernel found, since bwrap makes them itself; and a root of
    // its own made of the binds alone, where no other socket is.
    IsolationPlan isolation = PlanIsolation({true, true, ""}, 0);
    BubblewrapPlan bubblewrap = PlanBubblewrap(reach, links);
    return Confinement{std::move(reach),   std::move(plan),       std::move(isolation),
                       std::move(backend), std::move(bubblewrap), std::nullopt};
  }
  const IsolationSupport support = namespaces ? kernel.isolation : IsolationSupport{};
  IsolationPlan isolation = PlanIsolation(support, ProcRights(reach, plan.abi));
  std::optional<SocketMaskPlan> socket_mask;
  if (plan.abi > 0 && plan.abi < 9 && isolation.user_namespace) {
    socket_mask = PlanSocketMask(reach);
    std::replace(plan.unkept_promises.begin(), plan.unkept_promises.end(),
                 EveryLocalSocketUnkept(plan.abi),
                 SocketPromiseKeptByMounts(*socket_mask, plan.abi));
  }
  AddUnkeptIsolationPromises(isolation, plan.unkept_promises);
  return Confinement{
      std::move(reach),      std::move(plan), std::move(isolation), std::move(backend), {},
      std::move(socket_mask)};
}

BackendChoice ChooseBackendHere(const EnvironmentLookup& getenv) {
  const char* asked = getenv ? getenv(kBackendVariable) : nullptr;
  return ChooseBackend(asked, LandlockAbi(), ProbeBubblewrapOnce);
}

Result<Confinement> ConfineServerReach(Reach reach, const ServerStartOptions& options,
                                       const std::string& alias, const KernelFacts& kernel) {
  BackendChoice backend = ChooseBackendHere(options.getenv);
  // Under Landlock our launcher makes the namespaces, and must know which.
  if (backend.backend == Backend::kLandlock && options.layers.namespaces) {
    BRAVEBOT_RETURN_IF_ERROR(RequireKnownIsolation(kernel, alias));
  }
  std::vector<BubblewrapLink> links;
  if (backend.backend == Backend::kBubblewrap) links = BubblewrapLinks(reach, *options.fs);
  return ConfineReach(std::move(reach), kernel, options.layers.namespaces, std::move(backend),
                      links);
}

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
  const KernelFacts hoped{LandlockAbi(), answered.value_or(IsolationSupport{true, true, ""})};
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
