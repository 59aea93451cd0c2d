#include "supervisor/auth/sign_in_reach.h"

#include <utility>
#include <vector>

#include "supervisor/auth/oauth_url.h"

namespace bravebot {

Status ReachableWhileSigningIn(std::string_view service_url, std::string_view url,
                               const std::string& what) {
  Result<OAuthUrl> service = ReadOAuthUrl(service_url);
  const bool service_here = service && service->this_machine;
  Result<OAuthUrl> read = ReadOAuthUrl(url);
  if (!read) {
    return Error(ErrorCode::kRefused, what + " is not a usable url: " + read.error().message());
  }
  if (!service_here && read->this_machine) {
    // No service elsewhere has its sign-in on this machine: what it names
    // here, even in https, would have signing in probe this machine's ports.
    return Error(ErrorCode::kRefused,
                 what +
                     " is on this machine, which a service elsewhere cannot be signed in to "
                     "through, so nothing was sent to it");
  }
  if (read->https || (service_here && read->this_machine)) return {};
  if (service_here) {
    return Error(ErrorCode::kRefused,
                 what +
                     " is plain http to another machine, which would send secrets "
                     "unencrypted: it must be https, so nothing was sent to it");
  }
  return Error(ErrorCode::kRefused,
               what +
                   " is not https, which a service elsewhere than this machine cannot be "
                   "signed in to through, so nothing was sent to it");
}

Status ServerReachableWhileSigningIn(std::string_view service_url,
                                     const AuthorizationServerMetadata& server) {
  std::vector<std::pair<std::string, std::string>> endpoints = {
      {server.issuer, "its authorization server's issuer"},
      {server.authorization_endpoint, "its authorization server's authorization endpoint"},
      {server.token_endpoint, "its authorization server's token endpoint"}};
  if (server.registration_endpoint) {
    endpoints.emplace_back(*server.registration_endpoint,
                           "its authorization server's registration endpoint");
  }
  for (const auto& [endpoint, what] : endpoints) {
    BRAVEBOT_RETURN_IF_ERROR(ReachableWhileSigningIn(service_url, endpoint, what));
  }
  return {};
}

}  // namespace bravebot
