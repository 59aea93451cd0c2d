// bravebot-mcp enable: asks for a server in a settings file, so a session
// started there starts it; asks the server question first where it is not
// approved.
#include <ostream>

#include "cli/administrator_note.h"
#include "cli/command.h"
#include "cli/declaration_lookup.h"
#include "cli/profile_access.h"
#include "cli/server_question.h"
#include "cli/settings_writers_note.h"
#include "cli/simple_options.h"
#include "confine/digest.h"
#include "supervisor/store/approval_store.h"
#include "supervisor/store/settings_file.h"

namespace bravebot {
namespace {

std::string SaidOf(RequestChange change, const std::string& alias, const std::string& path) {
  return change == RequestChange::kAlreadyRequested
             ? path + " asks for " + alias + " already"
             : path + " now asks for " + alias + ": a session started here starts it";
}

SimpleCommandSpec EnableOptions() {
  SimpleCommandSpec spec{"enable",
                         "Asks for a declared MCP server in a settings file (-s local, the "
                         "default, project or user), asking at a terminal whether to approve it "
                         "where it is not approved.",
                         /*takes_alias=*/true,
                         /*takes_json=*/false,
                         {}};
  spec.takes_scope = true;
  return spec;
}

int RunEnable(const SimpleOptions& options, CommandContext& context) {
  if (!context.at_terminal) {
    return Report(context, "enable",
                  Error(ErrorCode::kRefused,
                        "enable asks a question, and its standard input or "
                        "output is not a terminal: run bravebot-mcp enable " +
                            options.alias + " at a terminal"));
  }
  Result<ProfileDirectory> profile = OpenProfileToWrite(context);
  if (!profile) return Report(context, "enable", profile.error());
  Result<Declaration> declaration = FindDeclaration(*profile, options.alias);
  if (!declaration) return Report(context, "enable", declaration.error());
  Result<ApprovalFile> approvals = ApprovalStore(*profile).Read();
  if (!approvals) return Report(context, "enable", approvals.error());

  const Scope scope = options.scope.value_or(Scope::kLocal);
  const SettingsFiles settings(context.cwd, &*profile);
  const std::string path = settings.PathOf(scope);
  // A file that cannot take the request is found before anything is asked or
  // approved, so nothing is left half done.
  if (Result<McpRequest> readable = settings.ReadRequest(scope); !readable) {
    return Report(context, "enable", readable.error());
  }
  Result<RequestChange> change = RequestChange::kAlreadyRequested;
  auto ask_for_it = [&](const FileLock& held) -> Status {
    change =
        settings.AddRequest(scope, declaration->alias, scope == Scope::kUser ? &held : nullptr);
    return change ? Status() : Status(change.error());
  };

  const DeclarationDigest digest = ComputeDigest(*declaration);
  if (approvals->Approves(digest.hex)) {
    Result<FileLock> lock = profile->Lock();
    if (!lock) return Report(context, "enable", lock.error());
    if (Status asked = ask_for_it(*lock); !asked) return Report(context, "enable", asked.error());
  } else {
    if (!AskServerQuestion(context, *declaration, *approvals)) {
      context.out << declaration->alias << " is not approved, and nothing was asked for\n";
      return kExitOk;
    }
    if (Status done = ApproveAsShown(*profile, *declaration, ask_for_it); !done) {
      return Report(context, "enable", done.error());
    }
    context.out << "approved " << declaration->alias << ": digest " << digest.Short() << "\n";
  }
  context.out << SaidOf(*change, declaration->alias, path) << "\n";
  SayIfAServerMayWriteTheRequest(context, *profile, scope, declaration->alias);
  SayIfTheAdministratorRefuses(context, *declaration);
  return kExitOk;
}

}  // namespace

const CommandSpec kEnableCommand = {
    "enable", "ask for a server in a settings file, approving it first at a terminal", "enabled",
    EnableOptions, RunEnable};

}  // namespace bravebot
