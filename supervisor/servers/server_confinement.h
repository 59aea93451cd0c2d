// A server's reach computed on this machine, and made into what confines it
// on this kernel: Landlock's plan, the namespaces and the sockets hidden, or
// bubblewrap's arguments. Nothing here starts a process.
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_SERVER_CONFINEMENT_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_SERVER_CONFINEMENT_H_

#include <optional>
#include <string>
#include <vector>

#include "base/environment.h"
#include "base/result.h"
#include "confine/declaration.h"
#include "confine/reach.h"
#include "launcher/isolation.h"
#include "profiles/bubblewrap_plan.h"
#include "profiles/landlock_plan.h"
#include "profiles/socket_mask_plan.h"
#include "supervisor/servers/backend_choice.h"
#include "supervisor/servers/server_start_options.h"

namespace bravebot {

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

// This kernel's Landlock ABI (0 for none), asked once a process.
int LandlockAbiHere();

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_SERVER_CONFINEMENT_H_
