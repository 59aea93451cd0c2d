// Whether the sign-in a service's channel opened with is still kept:
// logout, or the declaration changed or removed, forgets its tokens, and
// a session running then sends the token no more from its next request
// (HttpChannel asks before each one).
//
//   channel.bearer = *co_await ServiceToken(http, declaration, options);  // once it is ok
//   channel.sign_in_kept = SignInKeptCheck(declaration, options);
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_KEPT_SIGN_IN_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_KEPT_SIGN_IN_H_

#include <functional>

#include "confine/declaration.h"
#include "supervisor/servers/server_start_options.h"

namespace bravebot {

// Reads mcp-tokens for an entry of the declaration's alias, digest and
// origin, each time it is called; false where there is none, or the file
// (or the profile directory) can no longer be read: a token is sent only
// while it is known to be kept. Nothing (an empty function) where no token
// could have been kept: an incognito session, no profile directory.
std::function<bool()> SignInKeptCheck(const Declaration& declaration,
                                      const ServerStartOptions& options);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_KEPT_SIGN_IN_H_
