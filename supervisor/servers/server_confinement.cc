#include "supervisor/servers/server_confinement.h"

#include <pwd.h>
#include <unistd.h>

#include <algorithm>

#include "confine/paths.h"
#include "launcher/landlock_ruleset.h"
#include "profiles/bubblewrap_links.h"
#include "supervisor/store/declaration_store.h"

namespace bravebot {
namespace {

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

}  // namespace

int LandlockAbiHere() {
  static const int abi = ProbeLandlockAbi();
  return abi;
}

KernelFacts ProbeKernelOnce() { return {LandlockAbiHere(), ProbeIsolation()}; }

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
  return ChooseBackend(asked, LandlockAbiHere(), ProbeBubblewrapOnce);
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

}  // namespace bravebot
