// Signing in to a service at the person's terminal, and keeping what it
// gives: what `bravebot-mcp login` does, and what `mcp-run` offers where a
// service it lists asks for a sign-in.
//
//   BRAVEBOT_RETURN_IF_ERROR(SignInAndKeep(profile, declaration, context));
#ifndef BRAVEBOT_CLI_SIGN_IN_AT_TERMINAL_H_
#define BRAVEBOT_CLI_SIGN_IN_AT_TERMINAL_H_

#include <ostream>

#include "base/result.h"
#include "cli/command.h"
#include "confine/declaration.h"
#include "supervisor/store/profile_directory.h"

namespace bravebot {

// Signs in to `declaration`'s service in the person's browser (MCP's
// authorization: cli/sign_in.h), asking at the terminal where there is one
// whether a declared client's secret may go elsewhere than the service,
// and keeps the tokens in `profile`'s mcp-tokens under the declaration's
// digest and origin. Says where to sign in, then "Signed in to ALIAS until
// ..." on `said` (login's standard output; mcp-run's standard error, whose
// standard output is the server's, and may be piped where no person reads
// it); why not otherwise, naming the alias.
Status SignInAndKeep(const ProfileDirectory& profile, const Declaration& declaration,
                     CommandContext& context, std::ostream& said);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_SIGN_IN_AT_TERMINAL_H_
