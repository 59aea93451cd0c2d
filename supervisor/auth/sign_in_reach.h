// What signing in may send a request to. Plain http is for the tests'
// servers on this machine: a service elsewhere is signed in to through
// https alone, from the first document fetched for it on. Its 401 names
// the protected resource metadata, and that names the authorization
// server, so either could otherwise point signing in at this machine's own
// ports (a plain http listener there is reached by no service elsewhere),
// or have its documents and secrets read unencrypted on the way. A refresh
// is held to it too: the token endpoint it goes to is read from mcp-tokens,
// which a restored backup or a hand may have written.
//
//   BRAVEBOT_RETURN_IF_ERROR(ReachableWhileSigningIn(plan.service_url, metadata_url,
//                                                    "the metadata url its 401 names"));
#ifndef BRAVEBOT_SUPERVISOR_AUTH_SIGN_IN_REACH_H_
#define BRAVEBOT_SUPERVISOR_AUTH_SIGN_IN_REACH_H_

#include <string>
#include <string_view>

#include "base/result.h"
#include "supervisor/auth/authorization_metadata.h"

namespace bravebot {

// Whether signing in to the service declared at `service_url` may send a
// request to `url`: where it is https, or where the service is on this
// machine (localhost, 127.0.0.0/8, ::1, and the other spellings of
// OAuthUrl::this_machine) and `url` is plain http to this machine too;
// never this machine for a service elsewhere, even in https.
// kRefused otherwise, naming it as `what` and never quoting it.
Status ReachableWhileSigningIn(std::string_view service_url, std::string_view url,
                               const std::string& what);

// The same for the issuer and every endpoint `server`'s metadata names.
Status ServerReachableWhileSigningIn(std::string_view service_url,
                                     const AuthorizationServerMetadata& server);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_AUTH_SIGN_IN_REACH_H_
