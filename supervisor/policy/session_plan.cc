#include "supervisor/policy/session_plan.h"

#include <algorithm>
#include <map>

#include "confine/digest.h"
#include "confine/paths.h"
#include "confine/reach.h"
#include "confine/sign_in_client.h"
#include "supervisor/policy/runner_lines.h"
#include "supervisor/store/settings_file.h"

namespace bravebot {
namespace {

constexpr char kAnswers[] =
    "  Use this MCP server?\n"
    "  1. Yes\n"
    "  2. Yes, and use all future MCP servers in this project\n"
    "  3. No, continue without this server\n"
    "  [1/2/3]";

std::string Shown(const std::string& path, const std::string& directory) {
  return IsSameOrBeneath(path, directory) && path != directory
             ? path.substr(directory == "/" ? 1 : directory.size() + 1)
             : path;
}

std::string CommandLine(const Declaration& declaration) {
  if (declaration.transport == Transport::kHttp) return declaration.url;
  std::string line = declaration.program;
  for (const std::string& argument : declaration.arguments) line += " " + argument;
  return line;
}

std::string VariablesRow(const Declaration& declaration) {
  std::string row;
  for (const std::string& name : declaration.VariableNames()) {
    row += (row.empty() ? "" : ", ") + name + (declaration.StoresVariable(name) ? " (stored)" : "");
  }
  return row;
}

// The names of a service's headers, never their values.
std::string HeadersRow(const Declaration& declaration) {
  std::string row;
  for (const std::string& name : declaration.HeaderNames()) {
    row += (row.empty() ? "" : ", ") + name + " (stored)";
  }
  return row;
}

std::optional<std::string> Runs(const Declaration& declaration, const SessionInputs& inputs) {
  return WhereItRuns(declaration, inputs.getenv, *inputs.fs);
}

std::string Question(const PlannedServer& server, const SessionInputs& inputs,
                     const std::optional<std::string>& runs) {
  const Declaration& declaration = *server.declaration;
  const std::string indent(2 + declaration.alias.size() + 3, ' ');
  std::string text = "  " + declaration.alias + "   " +
                     std::string(TransportName(declaration.transport)) + "   " +
                     CommandLine(declaration) + "\n";
  for (const std::string& file : server.requested_by) {
    text += indent + "requested by " + Shown(file, inputs.directory) + "\n";
  }
  if (runs) text += indent + "runs " + *runs + "\n";
  if (std::string variables = VariablesRow(declaration); !variables.empty()) {
    text += indent + "variables: " + variables + "\n";
  }
  if (std::string headers = HeadersRow(declaration); !headers.empty()) {
    text += indent + "headers: " + headers + "\n";
  }
  for (const std::string& row : SignInClientRows(declaration.sign_in)) text += indent + row + "\n";
  for (const std::string& file : declaration.may_read) text += indent + "may read: " + file + "\n";
  text += indent + "digest: " + ComputeDigest(declaration).Short() + "\n";
  if (const ServerApproval* last = inputs.approvals->LastUnderAlias(declaration.alias);
      last != nullptr && last->digest != ComputeDigest(declaration).hex) {
    std::string changed;
    for (const std::string& field : ChangedSince(*last, declaration)) {
      changed += (changed.empty() ? "" : ", ") + field;
    }
    text += indent + "changed: " + changed + "\n";
  }
  for (const std::string& line : RunnerLines(declaration)) text += indent + line + "\n";
  return text + "\n" + kAnswers;
}

// Whether answer 2 in this project covers it: not for a declaration changed
// since it was approved.
bool CoveredByProjectAnswer(const PlannedServer& server, const SessionInputs& inputs,
                            bool project_answered) {
  if (!project_answered) return false;
  const ServerApproval* last = inputs.approvals->LastUnderAlias(server.alias);
  return last == nullptr || last->digest == ComputeDigest(*server.declaration).hex;
}

// Why a server nothing approved is left out where `who` asks nobody.
std::string NobodyAsked(const std::string& alias, const std::string& who) {
  return alias + " was not started: " + who + " asks nobody, so run bravebot-mcp approve " + alias +
         " at a terminal";
}

void DecideServer(PlannedServer& server, const SessionInputs& inputs, bool project_answered) {
  if (!server.declaration) {
    server.reason = Shown(server.requested_by.front(), inputs.directory) +
                    " requests the MCP server " + server.alias +
                    ", which is not declared, so nothing was installed or run for it: "
                    "bravebot-mcp add declares one";
    return;
  }
  const Declaration& declaration = *server.declaration;
  server.approved = inputs.approvals->Approves(ComputeDigest(declaration).hex);
  const std::optional<std::string> runs = Runs(declaration, inputs);
  if (inputs.policy != nullptr) {
    ManagedDecision managed =
        Decide(*inputs.policy, declaration,
               runs.value_or(declaration.program.starts_with('/') ? declaration.program : ""));
    if (!managed.allowed) {
      server.refused_by_administrator = true;
      server.administrator_reason = managed.reason;
      server.reason = ManagedRefusalSentence(server.alias, managed);
      return;
    }
  }
  if (server.approved || inputs.asking == Asking::kSkipPermissions ||
      CoveredByProjectAnswer(server, inputs, project_answered)) {
    server.decision = ServerDecision::kStartUnasked;
    return;
  }
  switch (inputs.asking) {
    case Asking::kSomebody:
      server.decision = ServerDecision::kAsk;
      server.question = Question(server, inputs, runs);
      return;
    case Asking::kOneShot:
      server.reason = NobodyAsked(server.alias, "a one-shot run");
      return;
    case Asking::kNobody:
      server.reason = NobodyAsked(server.alias, "a session with no terminal");
      return;
    case Asking::kSkipPermissions:
      return;
  }
}

}  // namespace

std::optional<std::string> WhereItRuns(const Declaration& declaration,
                                       const EnvironmentLookup& getenv, const FileSystemView& fs) {
  if (declaration.transport != Transport::kStdio ||
      !IsProgramFoundThroughPath(declaration.program)) {
    return std::nullopt;
  }
  Result<std::string> found = LocateProgram(declaration, getenv, fs);
  return found ? std::optional<std::string>(*found) : std::nullopt;
}

ManagedDecision AdministratorDecision(const ManagedPolicy& policy, const Declaration& declaration,
                                      const EnvironmentLookup& getenv, const FileSystemView& fs) {
  std::optional<std::string> runs = WhereItRuns(declaration, getenv, fs);
  if (!runs && declaration.program.starts_with('/')) runs = declaration.program;
  return Decide(policy, declaration, runs.value_or(""));
}

bool ReadsNarrowingOnly(const SessionPlan& plan, Scope scope) {
  return scope != Scope::kUser && !plan.checkout_writers.empty();
}

Result<SessionPlan> PlanSession(const SessionInputs& inputs) {
  SessionPlan plan;
  plan.directory = inputs.directory;
  plan.checkout_directory = ResolveCheckoutDirectory(inputs.directory);
  const SettingsFiles settings(plan.checkout_directory, inputs.profile);
  plan.checkout_writers = WritersOfCheckoutSettings(
      plan.checkout_directory,
      {inputs.declarations, inputs.profile != nullptr ? inputs.profile->resolved_path() : "",
       kSystemTemporaryRoot});
  const std::vector<SettingsWriter>& writers = plan.checkout_writers;
  std::map<std::string, PlannedServer> requested;
  for (Scope scope : {Scope::kLocal, Scope::kProject, Scope::kUser}) {
    // What a server may have written asks for nothing: the file is read once,
    // to say so where it is there, and its mcp.request is not looked at.
    Result<McpRequest> request = McpRequest{};
    if (ReadsNarrowingOnly(plan, scope)) {
      Result<std::optional<nlohmann::json>> document = settings.ReadDocument(scope);
      if (!document) {
        request = document.error();
      } else if (document->has_value()) {
        const std::string path = settings.PathOf(scope);
        plan.server_writable.push_back(
            {scope, path, DescribeServerWritableSettings(path, writers)});
      }
    } else {
      request = settings.ReadRequest(scope);
    }
    if (!request) {
      // A .bravebot that is a link refuses both files of the checkout with
      // the one message: said once.
      const bool said = std::any_of(
          plan.unreadable.begin(), plan.unreadable.end(),
          [&](const Error& error) { return error.message() == request.error().message(); });
      if (!said) plan.unreadable.push_back(request.error());
      continue;
    }
    for (const std::string& alias : request->aliases) {
      PlannedServer& server = requested[alias];
      server.alias = alias;
      server.requested_by.push_back(settings.PathOf(scope));
    }
  }
  bool project_answered = false;
  if (inputs.profile != nullptr && !inputs.incognito) {
    BRAVEBOT_ASSIGN_OR_RETURN(bool answered,
                              StandingAnswers(*inputs.profile).ServersAnsweredIn(inputs.directory));
    project_answered = answered;
  }
  for (auto& [alias, server] : requested) {
    if (inputs.declarations != nullptr) {
      if (const Declaration* declared = inputs.declarations->Find(alias)) {
        server.declaration = *declared;
      }
    }
    DecideServer(server, inputs, project_answered);
    plan.requested.push_back(std::move(server));
  }
  return plan;
}

}  // namespace bravebot
