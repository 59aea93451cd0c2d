// bravebot-mcp approve ALIAS --tools: the list question, at a terminal, for
// a session where nobody can be asked. The server is started as a session
// in the current directory starts it, through bravebot-supervisor and
// nothing else, so what is shown and recorded is exactly what such a
// session reads: the list it offers once a yes is in mcp-approved.
#include <signal.h>

#include <memory>
#include <ostream>

#include "cli/approve_forms.h"
#include "cli/declaration_lookup.h"
#include "cli/profile_access.h"
#include "cli/requested_here.h"
#include "cli/server_question.h"
#include "cli/supervisor_child.h"
#include "cli/terminal_questions.h"
#include "cli/terminal_session.h"
#include "confine/digest.h"
#include "supervisor/store/approval_store.h"

namespace bravebot {
namespace {

using Json = TerminalSession::Json;

std::string ToolsOf(const Json& list) {
  auto tools = list.find("tools");
  const std::size_t count = tools != list.end() && tools->is_array() ? tools->size() : 0;
  return std::to_string(count) + (count == 1 ? " tool" : " tools");
}

const Json* FindServer(const Json& opened, const std::string& alias) {
  auto servers = opened.find("servers");
  if (servers == opened.end() || !servers->is_array()) return nullptr;
  for (const Json& server : *servers) {
    if (server.value("alias", "") == alias) return &server;
  }
  return nullptr;
}

// What approve does in the session: the server question where it is asked,
// the start, and the list question. Its exit status.
int TakeListThrough(TerminalSession& session, CommandContext& context,
                    const ProfileDirectory& profile, const Declaration& declaration,
                    const std::string& again) {
  const std::string& alias = declaration.alias;
  Result<Json> opened =
      session.Request("session/open", {{"directory", context.cwd}, {"mode", "plain"}});
  if (!opened) return Report(context, "approve", opened.error());
  const Json* server = FindServer(*opened, alias);
  if (server == nullptr) {
    return Report(context, "approve", NotRequestedHere(context, profile, alias, again));
  }
  const std::string state = server->value("state", "");
  if (state == "ask") {
    const DeclarationDigest digest = ComputeDigest(declaration);
    if (server->value("digest", "") != digest.hex) {
      return Report(context, "approve",
                    Error(ErrorCode::kRefused,
                          alias + " was declared anew while approve read it, so what it would "
                                  "show is not what runs: ask again"));
    }
    Result<ApprovalFile> approvals = ApprovalStore(profile).Read();
    if (!approvals) return Report(context, "approve", approvals.error());
    const bool yes = AskServerQuestion(context, declaration, *approvals);
    Result<Json> answered =
        session.Request("server/answer", {{"alias", alias}, {"answer", yes ? "1" : "3"}});
    if (!answered) return Report(context, "approve", answered.error());
    if (!yes) {
      context.out << alias << " is not approved, so it was not started and its list not shown\n";
      return kExitOk;
    }
    if (answered->value("state", "") != "start") {
      return Report(context, "approve",
                    Error(ErrorCode::kRefused, answered->value("reason", alias + " not approved")));
    }
    context.out << "approved " << alias << ": digest " << digest.Short() << "\n";
  } else if (state != "start") {
    // Refused by the administrator file: its reason says so, and what to do.
    return Report(context, "approve",
                  Error(ErrorCode::kRefused, server->value("reason", alias + " does not start")));
  }

  Result<Json> list = session.StartServer(alias);
  if (!list) return Report(context, "approve", list.error());
  if (list->value("toolsState", "") == "approved") {
    context.out << alias << "'s list of " << ToolsOf(*list)
                << " is approved already: a session here offers them to the model\n";
    return kExitOk;
  }
  Result<Json> answered = session.AskAboutList(alias, *list);
  if (!answered) return Report(context, "approve", answered.error());
  if (answered->contains("note")) {
    // The yes holds for this run only: nothing later reads it.
    return Report(context, "approve",
                  Error(ErrorCode::kRefused, answered->value("note", "the yes was not recorded")));
  }
  if (answered->value("offered", false)) {
    context.out << "approved " << alias << "'s list of " << ToolsOf(*list)
                << ": a session here offers them to the model, even where nobody can be asked\n";
  } else {
    context.out << alias << "'s list is not approved: a session here where nobody can be asked "
                << "offers none of its tools\n";
  }
  return kExitOk;
}

}  // namespace

int ApproveToolList(const SimpleOptions& options, CommandContext& context) {
  const std::string again = "bravebot-mcp approve " + options.alias + " --tools";
  const Error no_terminal(ErrorCode::kRefused,
                          "approve --tools asks questions, and its standard input or output is "
                          "not a terminal: run " +
                              again + " at a terminal, in the checkout that asks for " +
                              options.alias);
  if (!context.at_terminal) return Report(context, "approve", no_terminal);
  Result<ProfileDirectory> profile = OpenProfileToWrite(context);
  if (!profile) return Report(context, "approve", profile.error());
  Result<Declaration> declaration = FindDeclaration(*profile, options.alias);
  if (!declaration) return Report(context, "approve", declaration.error());
  if (Status requested = CheckRequestedHere(context, *profile, options.alias, again); !requested) {
    return Report(context, "approve", requested.error());
  }
  // The list question is put at the terminal itself, as a session puts it.
  std::unique_ptr<TerminalQuestions> questions = TerminalQuestions::Open();
  if (!questions) return Report(context, "approve", no_terminal);
  // A supervisor that ends makes a write to it fail, not end this program.
  ::signal(SIGPIPE, SIG_IGN);
  Result<std::unique_ptr<SupervisorChild>> supervisor =
      SupervisorChild::StartOursBesideUs(context.fs, "no server can be started to show its list");
  if (!supervisor) return Report(context, "approve", supervisor.error());
  int status = kExitFailed;
  {
    TerminalSession session(**supervisor, questions.get(), context.out, context.err,
                            "bravebot-mcp approve");
    status = TakeListThrough(session, context, *profile, *declaration, again);
    session.Close();  // the server is stopped, and the supervisor ends
  }
  (*supervisor)->Wait();
  return status;
}

}  // namespace bravebot
