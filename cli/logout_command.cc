// bravebot-mcp logout: forgets the tokens signing in to a service earned.
// The provider is not told: its own page of connected apps is where a grant
// is revoked (docs/login.md).
#include <ostream>

#include "cli/command.h"
#include "cli/declaration_lookup.h"
#include "cli/profile_access.h"
#include "cli/simple_options.h"
#include "supervisor/store/token_store.h"

namespace bravebot {

namespace {

SimpleCommandSpec LogoutOptions() {
  return {"logout",
          "Forgets the tokens login kept for a service server, so no session sends them again. "
          "The provider is not told: revoke the grant on its own page to end it there too.",
          /*takes_alias=*/true,
          /*takes_json=*/false,
          {}};
}

int RunLogout(const SimpleOptions& options, CommandContext& context) {
  Result<ProfileDirectory> profile = OpenProfileToWrite(context);
  if (!profile) return Report(context, "logout", profile.error());
  // Every token of the alias, whatever declaration earned it: mcp.json
  // changed by hand leaves one of another digest, which changing it back
  // would bring back.
  Result<size_t> forgotten = ForgetTokens(*profile, options.alias);
  if (!forgotten) return Report(context, "logout", forgotten.error());
  if (*forgotten == 0) {
    Result<Declaration> declaration = FindDeclaration(*profile, options.alias);
    if (!declaration) return Report(context, "logout", declaration.error());
    context.out << options.alias << " was not signed in: nothing changed\n";
  } else {
    context.out << "Signed out of " << options.alias << ": its tokens are forgotten.\n";
  }
  return kExitOk;
}

}  // namespace

const CommandSpec kLogoutCommand = {"logout", "forget the tokens login kept for a service server",
                                    "signed out of", LogoutOptions, RunLogout};

}  // namespace bravebot
