// What starting a stdio server confined needs besides its declaration.
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_SERVER_START_OPTIONS_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_SERVER_START_OPTIONS_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/environment.h"
#include "confine/filesystem.h"
#include "confine/reach.h"
#include "launcher/launch.h"
#include "supervisor/policy/managed_policy.h"
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

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_SERVER_START_OPTIONS_H_
