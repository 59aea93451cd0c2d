// bravebot-mcp approve: the server question alone, at a terminal. A yes
// approves exactly the digest shown. Its two other forms, --tools and
// ALIAS:TOOL, are in approve_tool_list.cc and approve_tool_calls.cc.
#include <istream>
#include <ostream>

#include "cli/approve_forms.h"
#include "cli/command.h"
#include "cli/declaration_lookup.h"
#include "cli/declaration_view.h"
#include "cli/profile_access.h"
#include "cli/server_question.h"
#include "cli/simple_options.h"
#include "confine/digest.h"
#include "supervisor/store/approval_store.h"

namespace bravebot {

namespace {

SimpleCommandSpec ApproveOptions() {
  SimpleCommandSpec spec{
      "approve",
      "Shows what a declared MCP server runs and asks whether to approve it. With --tools, run in "
      "a checkout that asks for the server, it then starts the server confined, as a session "
      "there would, shows its tool list and asks whether sessions may offer it to the model. "
      "ALIAS:TOOL asks whether to stop asking before each call of that tool in the current "
      "directory's project (answer 2 of the call question). Asked only at a terminal.",
      /*takes_alias=*/true,
      /*takes_json=*/false,
      {{"--tools", "then start the server and ask about its tool list"}}};
  spec.alias_may_name_tool = true;
  return spec;
}

int RunApproveServer(const SimpleOptions& options, CommandContext& context);

int RunApprove(const SimpleOptions& options, CommandContext& context) {
  const bool tools = options.flags.count("--tools") > 0;
  if (tools && !options.tool.empty()) {
    return Report(context, "approve",
                  Error(ErrorCode::kUsage,
                        "--tools takes an alias alone: approve ALIAS --tools asks about a "
                        "server's list, approve ALIAS:TOOL about one tool's calls"));
  }
  if (!options.tool.empty()) return ApproveToolCalls(options, context);
  if (tools) return ApproveToolList(options, context);
  return RunApproveServer(options, context);
}

int RunApproveServer(const SimpleOptions& options, CommandContext& context) {
  if (!context.at_terminal) {
    return Report(context, "approve",
                  Error(ErrorCode::kRefused,
                        "approve asks a question, and its standard input or "
                        "output is not a terminal: run bravebot-mcp approve " +
                            options.alias + " at a terminal"));
  }
  Result<ProfileDirectory> profile = OpenProfileToWrite(context);
  if (!profile) return Report(context, "approve", profile.error());
  Result<Declaration> declaration = FindDeclaration(*profile, options.alias);
  if (!declaration) return Report(context, "approve", declaration.error());
  Result<ApprovalFile> approvals = ApprovalStore(*profile).Read();
  if (!approvals) return Report(context, "approve", approvals.error());
  const DeclarationDigest digest = ComputeDigest(*declaration);
  if (approvals->Approves(digest.hex)) {
    context.out << declaration->alias << " is approved already: digest " << digest.Short() << "\n";
    return kExitOk;
  }

  if (!AskServerQuestion(context, *declaration, *approvals)) {
    context.out << declaration->alias << " is not approved\n";
    return kExitOk;
  }
  if (Status approved = ApproveAsShown(*profile, *declaration); !approved) {
    return Report(context, "approve", approved.error());
  }
  context.out << "approved " << declaration->alias << ": digest " << digest.Short() << "\n";
  return kExitOk;
}

}  // namespace

const CommandSpec kApproveCommand = {"approve",
                                     "ask, at a terminal, whether to approve what a server runs",
                                     "approved", ApproveOptions, RunApprove};

}  // namespace bravebot
