// bravebot-mcp get: shows one declaration in full, with the whole digest.
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/command.h"
#include "cli/declaration_lookup.h"
#include "cli/declaration_view.h"
#include "cli/profile_access.h"
#include "cli/sign_in_words.h"
#include "cli/simple_options.h"
#include "confine/digest.h"
#include "supervisor/auth/authorization_request.h"
#include "supervisor/policy/managed_policy.h"
#include "supervisor/policy/session_plan.h"
#include "supervisor/store/approval_store.h"
#include "supervisor/store/declaration_store.h"

namespace bravebot {

namespace {

SimpleCommandSpec GetOptions() {
  return {"get",
          "Shows one declared MCP server in full, with its whole digest.",
          /*takes_alias=*/true,
          /*takes_json=*/true,
          {}};
}

int RunGet(const SimpleOptions& options, CommandContext& context) {
  Result<std::optional<ProfileDirectory>> profile = OpenProfileToRead(context);
  if (!profile) return Report(context, "get", profile.error());
  if (!*profile) {
    std::string why = context.ProfileLocation() ? "the profile directory " +
                                                      *context.ProfileLocation() + " does not exist"
                                                : NoProfileDirectoryMessage();
    return Report(context, "get",
                  Error(ErrorCode::kNotFound, options.alias + " is not declared: " + why));
  }
  const DeclarationStore store(**profile);
  Result<Declaration> declaration = FindDeclaration(**profile, options.alias);
  if (!declaration) return Report(context, "get", declaration.error());

  Result<ApprovalFile> approvals = ApprovalStore(**profile).Read();
  if (!approvals) return Report(context, "get", approvals.error());
  const bool approved = approvals->Approves(ComputeDigest(*declaration).hex);
  const ManagedDecision managed = AdministratorDecision(
      LoadManagedPolicy(ManagedFilePath(context.getenv)), *declaration, context.getenv, context.fs);
  const std::optional<StoredToken> token = KeptToken(**profile, *declaration);
  // Where a program named through PATH is found: the path an administrator's
  // command entry names (docs/administrator.md), as the session's question
  // shows it.
  const std::optional<std::string> runs = WhereItRuns(*declaration, context.getenv, context.fs);
  if (options.json) {
    nlohmann::json summary = DeclarationSummaryJson(*declaration);
    if (runs) summary["runs"] = *runs;
    AddSignInFields(summary, *declaration, token);
    summary["file"] = store.path();
    summary["approved"] = approved;
    if (!managed.allowed) summary["not_started"] = managed.reason;
    context.out << JsonText(summary) << "\n";
    return kExitOk;
  }
  context.out << "declared in " << store.path() << "\n"
              << DisplayDeclarationBlock(
                     *declaration, ComputeDigest(*declaration).hex,
                     {std::string(approved ? "approved" : "unapproved") +
                      (managed.allowed ? "" : "  not started: " + managed.reason) +
                      // Said where a sign-in is kept: the spec's rows for the rest.
                      (token ? "  " + SignInWords(token, SecondsSince1970Now()) : "")},
                     runs);
  return kExitOk;
}

}  // namespace

const CommandSpec kGetCommand = {"get", "show one declaration in full, with its whole digest", "",
                                 GetOptions, RunGet};

}  // namespace bravebot
