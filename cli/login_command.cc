// bravebot-mcp login: signs in to a service server that asks for it (MCP's
// authorization: cli/sign_in.h), in the person's browser, and keeps the
// tokens in mcp-tokens under the declaration's digest and origin.
#include <ostream>

#include "cli/command.h"
#include "cli/declaration_lookup.h"
#include "cli/profile_access.h"
#include "cli/sign_in_at_terminal.h"
#include "cli/simple_options.h"

namespace bravebot {

namespace {

SimpleCommandSpec LoginOptions() {
  return {"login",
          "Signs in to a service server (add --http) that asks for it: opens the browser at "
          "its authorization server, and keeps the tokens it gives in mcp-tokens, for the "
          "sessions that start it. Signing in again replaces them.",
          /*takes_alias=*/true,
          /*takes_json=*/false,
          {}};
}

int RunLogin(const SimpleOptions& options, CommandContext& context) {
  Result<ProfileDirectory> profile = OpenProfileToWrite(context);
  if (!profile) return Report(context, "login", profile.error());
  Result<Declaration> declaration = FindDeclaration(*profile, options.alias);
  if (!declaration) return Report(context, "login", declaration.error());
  if (Status signed_in = SignInAndKeep(*profile, *declaration, context, context.out); !signed_in) {
    return Report(context, "login", signed_in.error());
  }
  return kExitOk;
}

}  // namespace

const CommandSpec kLoginCommand = {"login", "sign in to a service server that asks for it",
                                   "signed in to", LoginOptions, RunLogin};

}  // namespace bravebot
