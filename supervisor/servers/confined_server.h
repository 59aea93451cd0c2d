// One stdio server started confined: what was computed to confine it, and
// the handles of the process launched so (its pid and pidfd, its pipes, its
// run directory). RunningServer owns one for the whole of its life on an
// event loop, and stops it (servers/stop_sequence.h); nothing here waits.
//
//   Result<ConfinedServer> server = ConfinedServer::Start(declaration, options);
//   ... server->stdin_fd(), server->stdout_fd(), server->stderr_fd()
//   // once it ended: server->Reap(), then server->Finish()
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_CONFINED_SERVER_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_CONFINED_SERVER_H_

#include <sys/types.h>

#include <functional>
#include <optional>
#include <string>

#include "base/environment.h"
#include "base/result.h"
#include "base/unique_fd.h"
#include "confine/declaration.h"
#include "confine/filesystem.h"
#include "confine/reach.h"
#include "launcher/isolation.h"
#include "launcher/launch.h"
#include "profiles/bubblewrap_plan.h"
#include "profiles/landlock_plan.h"
#include "profiles/socket_mask_plan.h"
#include "supervisor/policy/managed_policy.h"
#include "supervisor/servers/backend_choice.h"
#include "supervisor/store/profile_directory.h"
#include "supervisor/store/server_directories.h"

namespace bravebot {

// The confinement's layers, one switch each, every one on. Nothing a person
// runs turns one off: the hostile battery does (integration/confined-exec),
// to prove the others alone, and bench/start_bench.cc, to measure what one
// costs. Kept apart so that no option a front end sets sits beside them.
struct LayersForTesting {
  bool landlock = true;
  bool read_only_view = true;
  bool namespaces = true;
  // Below Landlock ABI 9, the places of others' sockets hidden from the
  // server (profiles/socket_mask_plan.h).
  bool hide_socket_places = true;
};

struct ServerStartOptions {
  const ProfileDirectory* profile = nullptr;
  std::string user_home;  // "" when there is none
  EnvironmentLookup getenv;
  const FileSystemView* fs = nullptr;
  std::string system_temporary_root = kSystemTemporaryRoot;
  ChildStdio stdio = ChildStdio::kPipes;
  // An incognito session's: its home is made in its temporary directory and
  // goes with it, and nothing is written to the profile directory.
  bool incognito = false;
  // The administrator file's policy: a server it refuses is not started.
  std::optional<ManagedPolicy> policy;
  // For `reach --probe`: a program run in place of the server, under the
  // server's confinement with that one file added to read and run, and its
  // argv made from the reach computed. Empty to run the server.
  std::string program_override;
  std::function<std::vector<std::string>(const Reach&)> argv_override;
  // Every layer is on; only a test or a benchmark turns one off.
  LayersForTesting layers;
};

// What was computed to start a server: its reach, the backend that confines
// it, the Landlock plan for this kernel and the namespaces this machine
// allows it (under Landlock), or bwrap's arguments (under bubblewrap); and,
// under Landlock where it cannot refuse a socket but a mount namespace is
// had, the places of others' sockets hidden from it. All are what `reach`
// prints.
struct Confinement {
  Reach reach;
  LandlockPlan landlock;
  IsolationPlan isolation;
  BackendChoice backend;
  BubblewrapPlan bubblewrap;  // with Backend::kBubblewrap
  std::optional<SocketMaskPlan> socket_mask;
};

// What this kernel offers a server: its Landlock ABI (0 for none) and the
// namespaces an unprivileged process may make. Probed once a process, and
// given as it was then ever after, but for namespaces that could not be
// learned (IsolationSupport::unknown), which are probed again each time.
// ConfinedServer::Start probes the namespaces only where a start hoping for
// them all failed (a probe forks a child; most starts so make none).
struct KernelFacts {
  int landlock_abi = 0;
  IsolationSupport isolation;
};
KernelFacts ProbeKernelOnce();

// Refused, with the reason, where the namespaces a server is to start in
// could not be learned: nothing is started on a guess, since a guess of none
// would start it with neither the read-only view nor a PID namespace.
Status RequireKnownIsolation(const KernelFacts& kernel, const std::string& alias);

// Computes the reach of `declaration` on this machine without starting
// anything; the home and the temporary directory are named but not made.
// `program` is where its program was found (LocateProgram), or "" to find it
// here. Reads mcp.json for the directories other servers may write, and the
// filesystem for every grant.
Result<Reach> ComputeServerReach(const Declaration& declaration, const ServerStartOptions& options,
                                 const std::string& temporary_directory,
                                 const std::string& program = "");

// The confinement of `reach` under `backend` on a kernel that offers
// `kernel`: under Landlock, in the namespaces it allows where `namespaces`
// asks for them; under bubblewrap, in bwrap's, with `links` made again in its
// root. Pure.
Confinement ConfineReach(Reach reach, const KernelFacts& kernel, bool namespaces,
                         BackendChoice backend, const std::vector<BubblewrapLink>& links = {});

// The backend for servers started from the environment `getenv` reads:
// BRAVEBOT_BACKEND there, this kernel, and /usr/bin/bwrap where they leave it
// to.
BackendChoice ChooseBackendHere(const EnvironmentLookup& getenv);

// ConfineReach on this machine: a kernel that offers `kernel`
// (ProbeKernelOnce), the backend chosen for `options`, and the links of its
// filesystem (`options.fs`). Refused, naming `alias`, where Landlock's
// backend is chosen and the namespaces could not be learned
// (RequireKnownIsolation).
Result<Confinement> ConfineServerReach(Reach reach, const ServerStartOptions& options,
                                       const std::string& alias, const KernelFacts& kernel);

class ConfinedServer {
 public:
  static Result<ConfinedServer> Start(const Declaration& declaration,
                                      const ServerStartOptions& options);

  ConfinedServer(ConfinedServer&& other) noexcept;
  ConfinedServer& operator=(ConfinedServer&&) = delete;
  // One still running (its start abandoned, or nothing stopped it) is killed
  // with SIGKILL, reaped and finished: never left behind, and never waited
  // on longer than the kernel takes to end it.
  ~ConfinedServer();

  // Its first process: the init of its PID namespace, or the server itself.
  pid_t pid() const { return child_.pid; }
  // A pidfd of its first process, taken at the start: readable once it ends,
  // for a loop to wait on.
  int pidfd() const { return pidfd_.get(); }
  int stdin_fd() const { return child_.stdin_fd.get(); }
  int stdout_fd() const { return child_.stdout_fd.get(); }
  int stderr_fd() const { return child_.stderr_fd.get(); }
  const Confinement& confinement() const { return confinement_; }
  // Its temporary directory for this run (its TMPDIR), which Finish
  // removes; empty once Finish has, or handed it to a removal.
  const std::string& run_directory() const { return run_directory_.path; }

  // Hands its pipes' ends over to a loop that reads and writes them itself.
  UniqueFd TakeStdin() { return std::move(child_.stdin_fd); }
  UniqueFd TakeStdout() { return std::move(child_.stdout_fd); }
  UniqueFd TakeStderr() { return std::move(child_.stderr_fd); }

  // Its exit status as a shell gives it (128 + signal) if it has ended,
  // reaping it; nothing while it runs. Never blocks.
  std::optional<int> Reap();

  // Sends `signal` to its process group, while it is not reaped: after, its
  // number may be another process's. Under bubblewrap, a signal but SIGKILL
  // goes to the server itself, which bwrap would otherwise not pass on.
  void Signal(int signal);

  // Where Finish removes its temporary directory: before it returns, or on
  // a thread of its own (RemoveRunDirectoryInBackground), held meanwhile, for
  // an event loop that serves other servers and must not wait on what this
  // one left there.
  enum class Removal { kHere, kInBackground };

  // Once it has been reaped: ends what it left behind where it had no PID
  // namespace, then removes its temporary directory. Its output descriptors
  // stay open until this object goes: a reader may still be draining them.
  void Finish(Removal removal = Removal::kHere);

 private:
  ConfinedServer(LaunchedChild child, UniqueFd pidfd, Confinement confinement,
                 RunDirectory run_directory)
      : child_(std::move(child)),
        pidfd_(std::move(pidfd)),
        confinement_(std::move(confinement)),
        run_directory_(std::move(run_directory)) {}

  LaunchedChild child_;
  UniqueFd pidfd_;
  Confinement confinement_;
  RunDirectory run_directory_;
  std::optional<int> exit_status_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_CONFINED_SERVER_H_
