// What a session started in a directory would do with each server asked for
// there: start it unasked, ask first (with the exact question), or not start
// it (with the reason in the spec's words). One function, used by list and
// doctor now and by the supervisor when a session opens. It reads the files;
// it changes nothing.
//
//   auto plan = PlanSession(inputs);
//   for (const PlannedServer& server : plan->requested) ...
#ifndef BRAVEBOT_SUPERVISOR_POLICY_SESSION_PLAN_H_
#define BRAVEBOT_SUPERVISOR_POLICY_SESSION_PLAN_H_

#include <optional>
#include <string>
#include <vector>

#include "base/environment.h"
#include "base/result.h"
#include "confine/declaration.h"
#include "confine/filesystem.h"
#include "supervisor/policy/asking.h"
#include "supervisor/policy/managed_policy.h"
#include "supervisor/policy/settings_writers.h"
#include "supervisor/store/approval_file.h"
#include "supervisor/store/declaration_file.h"
#include "supervisor/store/profile_directory.h"
#include "supervisor/store/scope.h"
#include "supervisor/store/standing_answers.h"

namespace bravebot {

enum class ServerDecision { kStartUnasked, kAsk, kNotStarted };

struct PlannedServer {
  std::string alias;
  std::vector<std::string> requested_by;   // the settings files asking for it
  std::optional<Declaration> declaration;  // nothing when nobody declared it
  bool approved = false;
  ServerDecision decision = ServerDecision::kNotStarted;
  std::string question;  // kAsk: the question, drawn as the spec draws it
  std::string reason;    // kNotStarted: why, as the session says it when it opens
  bool refused_by_administrator = false;
  std::string administrator_reason;  // what list shows after "not started: "
};

// A settings file of the checkout that a declared server may write
// (supervisor/policy/settings_writers.h): only its deny and ask rules count.
struct ServerWritableSettings {
  Scope scope;
  std::string path;
  std::string sentence;  // said once as a session opens; shown by list and doctor
};

struct SessionPlan {
  std::string directory;
  // The directory, resolved once (ResolveCheckoutDirectory): where its
  // settings files are read, by the plan and by the session's rules alike.
  std::string checkout_directory;
  std::vector<PlannedServer> requested;  // by alias
  // Who may write the checkout's settings files: where anybody may, both are
  // read for their deny and ask rules alone, there or not as it opened.
  std::vector<SettingsWriter> checkout_writers;
  // Those of them that are there, each with the sentence that says so.
  std::vector<ServerWritableSettings> server_writable;
  // Settings files here that cannot be read: what they ask for is not known,
  // so nothing of theirs is started.
  std::vector<Error> unreadable;
};

struct SessionInputs {
  std::string directory;  // where the session starts (absolute)
  Asking asking = Asking::kSomebody;
  bool incognito = false;                     // asks, and reads and records no answer
  const ProfileDirectory* profile = nullptr;  // nothing declared without one
  const DeclarationFile* declarations = nullptr;
  const ApprovalFile* approvals = nullptr;
  const ManagedPolicy* policy = nullptr;
  EnvironmentLookup getenv;
  const FileSystemView* fs = nullptr;
};

Result<SessionPlan> PlanSession(const SessionInputs& inputs);

// Whether `plan` reads `scope`'s file for its deny and ask rules alone.
bool ReadsNarrowingOnly(const SessionPlan& plan, Scope scope);

// Where a program given by name is found through the PATH it is given (what
// the question shows as runs); nothing for a path, a service, or not found.
std::optional<std::string> WhereItRuns(const Declaration& declaration,
                                       const EnvironmentLookup& getenv, const FileSystemView& fs);

// The administrator's decision on `declaration`, matched with the program as
// the absolute path it is found at.
ManagedDecision AdministratorDecision(const ManagedPolicy& policy, const Declaration& declaration,
                                      const EnvironmentLookup& getenv, const FileSystemView& fs);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_POLICY_SESSION_PLAN_H_
