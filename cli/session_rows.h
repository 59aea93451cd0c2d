// The rows list and doctor print: each declared server with its approval,
// who asks for it in the directory and what a session at a terminal there
// would do, and the standing answers recorded for it there; a row for each
// server asked for and nobody declared; each entry that cannot be used; and
// a service's sign-in where login keeps one.
#ifndef BRAVEBOT_CLI_SESSION_ROWS_H_
#define BRAVEBOT_CLI_SESSION_ROWS_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "supervisor/policy/managed_policy.h"
#include "supervisor/policy/session_plan.h"
#include "supervisor/store/approval_file.h"
#include "supervisor/store/declaration_file.h"
#include "supervisor/store/standing_answers.h"
#include "supervisor/store/token_file.h"

namespace bravebot {

struct SessionRowsInput {
  const DeclarationFile* declarations;
  const ApprovalFile* approvals;
  const SessionPlan* plan;               // nothing: no directory to speak of
  std::vector<ToolAnswer> tool_answers;  // recorded for the plan's directory
  bool servers_answered = false;         // answer 2 at the server question there
  // For the administrator's refusal of a server no file here asks for.
  const ManagedPolicy* policy = nullptr;
  EnvironmentLookup getenv = {};
  const FileSystemView* fs = nullptr;
  // The sign-ins login keeps, said on a service's row where one is kept
  // (the spec's rows are the rest's); nothing: mcp-tokens could not be read.
  const TokenFile* tokens = nullptr;
  std::int64_t now = 0;  // seconds since 1970, what an expiry is said against
};

std::string DisplaySessionRows(const SessionRowsInput& input);
nlohmann::json SessionRowsJson(const SessionRowsInput& input);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_SESSION_ROWS_H_
