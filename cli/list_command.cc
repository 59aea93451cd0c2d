// bravebot-mcp list: every declaration, and what a session started here
// would do with it; a row for each server asked for here that nobody
// declared; and every entry that cannot be used, with what is wrong with it
// (which makes list fail, so that a script notices).
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/command.h"
#include "cli/profile_access.h"
#include "cli/session_rows.h"
#include "cli/sign_in_words.h"
#include "cli/simple_options.h"
#include "confine/paths.h"
#include "supervisor/auth/authorization_request.h"
#include "supervisor/policy/managed_policy.h"
#include "supervisor/policy/session_plan.h"
#include "supervisor/store/approval_store.h"
#include "supervisor/store/declaration_store.h"
#include "supervisor/store/standing_answers.h"
#include "supervisor/store/token_store.h"

namespace bravebot {

namespace {

int RunList(const SimpleOptions& options, CommandContext& context) {
  return RunListReportingAs("list", options, context);
}

SimpleCommandSpec ListOptions() {
  return {
      "list",
      "Lists every declared MCP server: its transport, approval and short digest, who asks for it "
      "here and what a session started here would do with it.",
      /*takes_alias=*/false,
      /*takes_json=*/true,
      {}};
}

// Each settings file here a server may write, and who may.
nlohmann::json ServerWritableSettingsJson(const SessionPlan& plan) {
  nlohmann::json files = nlohmann::json::array();
  for (const ServerWritableSettings& file : plan.server_writable) {
    nlohmann::json writers = nlohmann::json::array();
    for (const SettingsWriter& writer : plan.checkout_writers) {
      writers.push_back(
          {{"alias", writer.alias.empty() ? nlohmann::json() : nlohmann::json(writer.alias)},
           {"place", writer.place},
           {"what", writer.what}});
    }
    files.push_back({{"file", file.path}, {"writers", writers}, {"note", file.sentence}});
  }
  return files;
}

}  // namespace

int RunListReportingAs(const std::string& command, const SimpleOptions& options,
                       CommandContext& context, size_t* server_writable_settings) {
  Result<std::optional<ProfileDirectory>> profile = OpenProfileToRead(context);
  if (!profile) return Report(context, command, profile.error());
  DeclarationFile file;
  ApprovalFile approvals;
  SessionRowsInput rows{&file, &approvals, nullptr, {}, false};
  TokenFile tokens;
  std::optional<Error> unreadable_tokens;
  std::string path;
  if (std::optional<std::string> location = context.ProfileLocation()) {
    path = JoinPath(*location, kDeclarationFileName);
  }
  if (*profile) {
    Result<DeclarationFile> read = DeclarationStore(**profile).Read();
    if (!read) return Report(context, command, read.error());
    file = std::move(*read);
    Result<ApprovalFile> approved = ApprovalStore(**profile).Read();
    if (!approved) return Report(context, command, approved.error());
    approvals = std::move(*approved);
    StandingAnswers answers(**profile);
    Result<std::vector<ToolAnswer>> tools = answers.ToolsAnsweredIn(context.cwd);
    if (!tools) return Report(context, command, tools.error());
    rows.tool_answers = std::move(*tools);
    Result<bool> servers = answers.ServersAnsweredIn(context.cwd);
    if (!servers) return Report(context, command, servers.error());
    rows.servers_answered = *servers;
    // Read once for every row; a file that cannot be read is said after
    // them, and fails list as an unreadable settings file does.
    if (Result<TokenFile> kept = TokenStore(**profile).Read()) {
      tokens = std::move(*kept);
      rows.tokens = &tokens;
      rows.now = SecondsSince1970Now();
    } else {
      unreadable_tokens = kept.error();
    }
  }
  const ManagedPolicy policy = LoadManagedPolicy(ManagedFilePath(context.getenv));
  SessionInputs inputs{context.cwd,
                       Asking::kSomebody,
                       /*incognito=*/false,
                       *profile ? &**profile : nullptr,
                       &file,
                       &approvals,
                       &policy,
                       context.getenv,
                       &context.fs};
  Result<SessionPlan> plan = PlanSession(inputs);
  if (!plan) return Report(context, command, plan.error());
  rows.plan = &*plan;
  rows.policy = &policy;
  rows.getenv = context.getenv;
  rows.fs = &context.fs;

  if (server_writable_settings != nullptr) {
    *server_writable_settings = plan->server_writable.size();
  }
  if (options.json) {
    nlohmann::json json = SessionRowsJson(rows);
    json["file"] = path;
    json["directory"] = context.cwd;
    json["server_writable_settings"] = ServerWritableSettingsJson(*plan);
    context.out << JsonText(json) << "\n";
  } else if (path.empty()) {
    context.out << "nothing is declared: " << NoProfileDirectoryMessage() << "\n";
  } else if (file.declarations.empty() && file.unusable.empty() && plan->requested.empty()) {
    context.out << "nothing is declared in " << path
                << ": bravebot-mcp add ALIAS -- PROGRAM declares a server\n";
  } else {
    context.out << "declared in " << path << "\n"
                << "for a session started in " << context.cwd << "\n"
                << DisplaySessionRows(rows);
  }
  if (!options.json) {
    for (const ServerWritableSettings& writable : plan->server_writable) {
      context.out << "note: " << writable.sentence << "\n";
    }
  }
  for (const Error& unreadable : plan->unreadable) Report(context, command, unreadable);
  if (unreadable_tokens) Report(context, command, *unreadable_tokens);
  if ((!plan->unreadable.empty() || unreadable_tokens) && file.unusable.empty()) {
    return kExitFailed;
  }
  if (!file.unusable.empty()) {
    return Report(
        context, command,
        Error(ErrorCode::kCorrupt, std::to_string(file.unusable.size()) + " entr" +
                                       (file.unusable.size() == 1 ? "y" : "ies") + " of " + path +
                                       " cannot be used: mend each by hand, or remove it with "
                                       "bravebot-mcp remove ALIAS (one whose alias breaks the "
                                       "alias rule is taken out by hand)"));
  }
  return kExitOk;
}

const CommandSpec kListCommand = {"list", "list every declaration", "", ListOptions, RunList};

}  // namespace bravebot
