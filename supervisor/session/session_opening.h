// What session/open decides, reading the profile directory and changing
// nothing: each requested server's state, with the question or the reason in
// the spec's words, and the notes a session prints as it opens. And what
// server/answer records.
#ifndef BRAVEBOT_SUPERVISOR_SESSION_SESSION_OPENING_H_
#define BRAVEBOT_SUPERVISOR_SESSION_SESSION_OPENING_H_

#include <optional>
#include <string>
#include <vector>

#include "base/environment.h"
#include "base/result.h"
#include "confine/declaration.h"
#include "confine/filesystem.h"
#include "supervisor/policy/managed_policy.h"
#include "supervisor/policy/session_plan.h"
#include "supervisor/servers/confined_server.h"
#include "supervisor/session/rpc_messages.h"
#include "supervisor/store/profile_directory.h"
#include "supervisor/tools/mcp_rules.h"

namespace bravebot {

// The machine the supervisor serves on: how it reads the environment and the
// filesystem, the person's home, and where the profile directory is.
struct SupervisorMachine {
  EnvironmentLookup getenv;
  const FileSystemView* fs = nullptr;
  std::string user_home;                        // "" when there is none
  std::optional<std::string> profile_location;  // nothing when the machine names none
};

// session/open's params, read.
struct SessionSettings {
  std::string directory;
  // Its mode (terminal, plain, no-terminal or one-shot) and skipPermissions,
  // read once into who can be asked: a terminal and plain both ask somebody.
  Asking asking = Asking::kSomebody;
  bool incognito = false;
  int startup_timeout_seconds = 30;
  // What the session offers servers in initialize (roots, sampling,
  // elicitation): it answers those requests itself, through server/reply.
  Json capabilities = Json::object();
  // The session's own tools, whose names a server's tool must not borrow.
  std::vector<std::string> builtin_tools;
};

enum class ServerState { kStart, kAsk, kRefused, kLeftOut, kUndeclared };
std::string StateWord(ServerState state);

struct OpenedServer {
  std::string alias;
  std::vector<std::string> requested_by;
  std::optional<Declaration> declaration;
  ServerState state = ServerState::kUndeclared;
  std::string question;  // kAsk
  std::string reason;    // kRefused, kLeftOut, kUndeclared
};

struct OpenedSession {
  std::optional<ProfileDirectory> profile;  // nothing when there is none yet
  ManagedPolicy policy;
  std::vector<OpenedServer> servers;
  std::vector<std::string> notes;
  // The Mcp rules of the three settings files, as they read when it opened.
  McpRules rules;
};

Result<OpenedSession> OpenSession(const SessionSettings& settings,
                                  const SupervisorMachine& machine);

// session/open's entry for one server.
Json ServerEntry(const OpenedServer& server);

// What a session's Confinement line says, from what this kernel offers.
Json ConfinementEntry(const KernelFacts& kernel, const BackendChoice& backend);

// Answer 1 (approval) or 2 (approval, and this project's path in
// mcp-projects), in one hold of the profile directory's lock. Refused when
// `shown` is no longer what is declared: the answer was to something else.
Status RecordServerAnswer(const ProfileDirectory& profile, const Declaration& shown,
                          bool whole_project, const std::string& directory);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SESSION_SESSION_OPENING_H_
