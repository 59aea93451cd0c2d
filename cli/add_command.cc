// bravebot-mcp add: declares a server in mcp.json and shows what it declares.
#include <ostream>

#include "cli/add_arguments.h"
#include "cli/administrator_note.h"
#include "cli/command.h"
#include "cli/declaration_view.h"
#include "cli/profile_access.h"
#include "cli/program_reach_note.h"
#include "cli/server_question.h"
#include "cli/settings_writers_note.h"
#include "confine/digest.h"
#include "confine/paths.h"
#include "supervisor/policy/new_declaration.h"
#include "supervisor/policy/settings_writers.h"
#include "supervisor/store/approval_store.h"
#include "supervisor/store/declaration_changes.h"
#include "supervisor/store/declaration_store.h"
#include "supervisor/store/settings_file.h"

namespace bravebot {
namespace {

constexpr char kAddHelp[] =
    R"(usage: bravebot-mcp add [-s SCOPE] ALIAS [options] -- PROGRAM [ARGS...]
       bravebot-mcp add [-s SCOPE] ALIAS --http URL [--header NAME=value]...
                        [--client-id ID [--client-secret-file FILE]]
                        [--oauth-scope SCOPE]...

Declares an MCP server in mcp.json of the profile directory. Giving an alias
that is already declared replaces that declaration.

  ALIAS                     letters, digits, - and _, starting with a letter or a
                            digit, at most 64 characters
  -e, --env NAME=value...   store a value for the server under NAME; one flag
                            takes every word up to the next flag
  -e, --env NAME            pass this variable from your environment, by name;
                            one name to each flag
  --dir PATH                the directory the server runs in and may write, kept
                            as the absolute path it resolves to; one inside a git
                            repository is refused
  -- PROGRAM [ARGS...]      a program on this machine; --stdio -- means the same.
                            Every word after -- is the server's, as it is
  --http URL                a service at this url; takes neither -e nor --dir
  --header NAME=value       with --http: send this header with every request to
                            the service's own origin (Authorization=Bearer ...,
                            say), never elsewhere; one header to each flag
  --header NAME             the same, with the value of the variable NAME in
                            your environment as add runs, stored like the first
  --client-id ID            with --http: sign in as this client, registered with
                            the service's authorization server beforehand
  --client-secret-file FILE that client's secret, read from FILE as add runs
                            and stored like a value; never typed on the line
  --oauth-scope SCOPE       with --http: a scope to ask for at sign-in; one to
                            each flag (without it, the one the service names)
  -s, --scope SCOPE         which settings file asks for the server once you
                            approve it: local (the default), project or user

A stored value or header is never shown, only its name, and a client secret
only as set. A header the HTTP client sets itself (Content-Type, Accept, Host,
Mcp-Session-Id, ...) is refused. A program given by name is found through
PATH, so PATH is named for it unless you stored or named one.
)";

// Every refusal of add, whatever refused it, ends by saying nothing changed.
int Refuse(CommandContext& context, const Error& error) {
  return Report(
      context, "add",
      Error(error.code(), error.message() + "; nothing was declared", error.errno_value()));
}

std::string EnableCommand(const Declaration& declaration, Scope scope) {
  std::string command = "bravebot-mcp enable " + declaration.alias;
  if (scope != Scope::kLocal) command += " -s " + std::string(ScopeName(scope));
  return command;
}

// At a terminal: the declaration and the server question, every time, since
// a stored value or a file it may read can change while the digest does not.
// A yes approves it and asks for it in the file the scope names; where the
// digest was approved already, a no takes no approval back.
int AskAfterDeclaring(CommandContext& context, const ProfileDirectory& profile,
                      const Declaration& declaration, Scope scope) {
  Result<ApprovalFile> approvals = ApprovalStore(profile).Read();
  if (!approvals) return Report(context, "add", approvals.error());
  const SettingsFiles settings(context.cwd, &profile);
  const std::string path = settings.PathOf(scope);
  Result<McpRequest> request = settings.ReadRequest(scope);
  if (!request) return Report(context, "add", request.error());
  auto ask_for_it = [&](const FileLock& held) -> Status {
    Result<RequestChange> change =
        settings.AddRequest(scope, declaration.alias, scope == Scope::kUser ? &held : nullptr);
    return change ? Status() : Status(change.error());
  };
  const bool approved_already = approvals->Approves(ComputeDigest(declaration).hex);
  if (!AskServerQuestion(context, declaration, *approvals)) {
    if (approved_already) {
      context.out << declaration.alias
                  << " stays approved, since its digest did not change, and no file was changed "
                     "to ask for it\n";
    } else if (request->Requests(declaration.alias)) {
      context.out << declaration.alias << " is not approved, and " << path
                  << " asks for it already, so the next session there asks you again\n";
    } else {
      context.out << declaration.alias << " is declared, not approved, and asked for nowhere\n";
    }
    return kExitOk;
  }
  Status done = ApproveAsShown(profile, declaration, ask_for_it);
  if (!done) return Report(context, "add", done.error());
  context.out << (approved_already ? "" : "approved ") << declaration.alias
              << (approved_already ? " is approved already: " : ": ") << path << " asks for it\n";
  SayIfAServerMayWriteTheRequest(context, profile, scope, declaration.alias);
  SayIfTheAdministratorRefuses(context, declaration);
  return kExitOk;
}

// With either stream piped: what to run at a terminal, or that nothing need
// be. mcp-approved that cannot be read is reported, as at a terminal; a
// settings file that cannot be read is left to enable to report.
int SayWhatIsLeftToDo(CommandContext& context, const ProfileDirectory& profile,
                      const Declaration& declaration, Scope scope) {
  Result<ApprovalFile> approvals = ApprovalStore(profile).Read();
  if (!approvals) return Report(context, "add", approvals.error());
  const bool approved = approvals->Approves(ComputeDigest(declaration).hex);
  const SettingsFiles settings(context.cwd, &profile);
  Result<McpRequest> request = settings.ReadRequest(scope);
  if (approved && request && request->Requests(declaration.alias)) {
    context.out << declaration.alias << " is approved already, and " << settings.PathOf(scope)
                << " asks for it\n";
  } else if (approved) {
    context.out << declaration.alias << " is approved already: run "
                << EnableCommand(declaration, scope) << " at a terminal to ask for it\n";
  } else {
    context.out << declaration.alias << " is not approved: run "
                << EnableCommand(declaration, scope)
                << " at a terminal to approve it and ask for it\n";
  }
  return kExitOk;
}

// A --dir that holds a checkout's .bravebot: the settings files there are
// read for what narrows alone from now on (supervisor/policy/settings_writers.h).
void SayWhichSettingsItMayWrite(CommandContext& context, const Declaration& declaration) {
  if (declaration.directory.empty()) return;
  const SettingsDirectoriesFound found = CheckoutSettingsDirectoriesIn(declaration.directory);
  for (const std::string& settings : found.directories) {
    context.out << "note: " << declaration.alias << " may write " << settings
                << ", so a session in " << ParentPath(settings)
                << " reads the settings files there for their deny and ask rules alone: the "
                   "servers they request and their allow rules count for nothing while a server "
                   "may write them\n";
  }
  if (found.search_cut_short) {
    context.out << "note: " << declaration.directory << " was searched for checkouts' .bravebot "
                << "to its first " << kSettingsSearchEntries << " entries only; one deeper in it "
                << "is read the same way\n";
  }
  if (!found.directories.empty() || found.search_cut_short) context.out << "\n";
}

int RunAdd(const std::vector<std::string>& words, CommandContext& context) {
  Result<AddArguments> arguments = ParseAddArguments(words);
  if (!arguments) return Report(context, "add", arguments.error());
  if (arguments->help) {
    context.out << kAddHelp;
    return kExitOk;
  }
  if (Status read = ReadHeadersFromEnvironment(*arguments, context.getenv); !read) {
    return Report(context, "add", read.error());
  }
  if (Status read = ReadClientSecretFile(*arguments, context.fs, context.cwd); !read) {
    return Report(context, "add", read.error());
  }

  std::optional<std::string> location = context.ProfileLocation();
  if (!location) return Refuse(context, Error(ErrorCode::kRefused, NoProfileDirectoryMessage()));

  // Everything is checked before the profile directory is made, so a refused
  // add leaves nothing behind.
  DeclarationSurroundings around{context.cwd, *location,
                                 ResolvedProfileLocation(*location, context.fs), &context.fs,
                                 context.UserHome()};
  Result<Declaration> declaration = CompleteDeclaration(arguments->declaration, around);
  if (!declaration) return Refuse(context, declaration.error());

  if (context.at_terminal) {
    // The file a yes would ask for it in is checked before anything is
    // written or made, so the question is never left half answered and no
    // empty profile directory is left behind.
    Result<std::optional<ProfileDirectory>> existing = OpenProfileToRead(context);
    if (!existing) return Refuse(context, existing.error());
    Result<McpRequest> request =
        SettingsFiles(context.cwd, *existing ? &**existing : nullptr).ReadRequest(arguments->scope);
    if (!request) return Refuse(context, request.error());
  }
  Result<ProfileDirectory> profile = OpenProfileToWrite(context);
  if (!profile) return Refuse(context, profile.error());
  DeclarationStore store(*profile);
  Result<std::optional<Declaration>> replaced = Declare(*profile, *declaration);
  if (!replaced) return Refuse(context, replaced.error());

  context.out << "declared " << declaration->alias << " in " << store.path() << "\n\n";
  SayWhichSettingsItMayWrite(context, *declaration);
  SayWhatAServerMayHaveLeft(context, *profile, *replaced, *declaration);
  WarnWhatItsProgramIsNotGiven(context, *profile, *declaration);
  if (!context.at_terminal) {
    context.out << DisplayDeclarationBlock(*declaration, ComputeDigest(*declaration).Short())
                << "\n";
    return SayWhatIsLeftToDo(context, *profile, *declaration, arguments->scope);
  }
  return AskAfterDeclaring(context, *profile, *declaration, arguments->scope);
}

}  // namespace

// add reads its own words: every word after -- is the server's.
const CommandSpec kAddCommand = {
    .name = "add",
    .summary = "declare a server: bravebot-mcp add ALIAS -- PROGRAM [ARGS...]",
    .writes = "declared",
    .reads_own_words = RunAdd,
};

}  // namespace bravebot
