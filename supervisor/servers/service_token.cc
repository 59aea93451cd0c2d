#include "supervisor/servers/service_token.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include "confine/digest.h"
#include "supervisor/auth/authorization_request.h"
#include "supervisor/auth/oauth_url.h"
#include "supervisor/auth/sign_in_reach.h"
#include "supervisor/servers/http_fetch.h"
#include "supervisor/store/token_store.h"

namespace bravebot {

namespace {

// The access token of `token` where it can be sent and is good for
// kRefreshAhead more; nothing where it must be refreshed first.
std::optional<std::string> FreshAccessToken(const StoredToken& token) {
  if (!IsSendableToken(token.access_token)) return std::nullopt;
  if (token.expires_at && *token.expires_at <= SecondsSince1970Now() + kRefreshAhead.count()) {
    return std::nullopt;
  }
  return token.access_token;
}

// Where this start's refresh gave nothing to send, the token kept now: another
// start of the same service (a second session, mcp-run) may have refreshed
// it meanwhile with the same refresh token, which a server that rotates them
// then refused here. Theirs is sent, so that one of two starts at once is not
// told to sign in again; a logout or a changed declaration keeps nothing.
std::optional<std::string> RefreshedElsewhere(const ServerStartOptions& options,
                                              const StoredToken& old) {
  Result<std::optional<StoredToken>> now =
      FindToken(*options.profile, old.alias, old.digest, old.origin);
  if (!now || !*now || (*now)->refresh_token == old.refresh_token) return std::nullopt;
  return FreshAccessToken(**now);
}

// The refresh of `old` at its token endpoint, the new tokens kept; nothing
// where the server refused it or another start renewed it first.
boost::asio::awaitable<std::optional<StoredToken>> Refreshed(HttpClient& http,
                                                             Declaration declaration,
                                                             ServerStartOptions options,
                                                             StoredToken old) {
  // Only where login could have sent it: the endpoint is mcp-tokens' word.
  if (!ReachableWhileSigningIn(declaration.url, old.token_endpoint, "its token endpoint")) {
    co_return std::nullopt;
  }
  // The secret the server gave a client it registered, else the declared
  // client's; an entry kept before the way was stored sent it in the form.
  std::optional<std::string> secret = old.client_secret;
  if (!secret && !declaration.sign_in.secret.empty()) secret = declaration.sign_in.secret;
  const RefreshGrant grant{
      .refresh_token = *old.refresh_token,
      .resource = declaration.url,
      .client_id = old.client_id,
      .client_secret = secret,
      .authentication = old.client_authentication.value_or(
          secret ? ClientAuthentication::kSecretPost : ClientAuthentication::kNone)};
  Result<Fetched> answer = co_await Fetch(
      http, old.token_endpoint,
      TokenEndpointRequest(RefreshBody(grant),
                           ClientAuthorization(grant.client_id, secret, grant.authentication)));
  if (!answer || answer->head.status != 200) co_return std::nullopt;
  Result<TokenResponse> renewed = ParseTokenResponse(answer->body);
  if (!renewed) co_return std::nullopt;
  StoredToken token = old;
  token.access_token = renewed->access_token;
  // A server that rotates refresh tokens sends a new one; one that does
  // not leaves the old one good.
  if (renewed->refresh_token) token.refresh_token = renewed->refresh_token;
  token.expires_at = ExpiresAt(renewed->expires_in, SecondsSince1970Now());
  if (renewed->scope) token.scope = renewed->scope;
  // Kept before it is used: a refresh token rotated and then lost would
  // leave the person to sign in again. Not where a logout, a change of the
  // declaration or another start's refresh came while this one was sent:
  // what they left stands.
  Result<bool> renewed_here = RenewToken(*options.profile, old, token);
  if (!renewed_here || !*renewed_here) co_return std::nullopt;
  co_return token;
}

}  // namespace

boost::asio::awaitable<std::optional<std::string>> ServiceToken(HttpClient& http,
                                                                Declaration declaration,
                                                                ServerStartOptions options) {
  if (options.incognito || options.profile == nullptr) co_return std::nullopt;
  // Never in the clear: a plain http service (but the machine itself) gets
  // no token, as login signs in to none.
  Result<OAuthUrl> service = ReadSecureOAuthUrl(declaration.url, "its url");
  if (!service) co_return std::nullopt;
  Result<std::optional<StoredToken>> found = FindToken(
      *options.profile, declaration.alias, ComputeDigest(declaration).hex, service->origin);
  if (!found || !*found) co_return std::nullopt;
  const StoredToken old = std::move(**found);
  // A hand-edited file's token that no header can carry is not refreshed.
  if (!IsSendableToken(old.access_token)) co_return std::nullopt;
  if (std::optional<std::string> fresh = FreshAccessToken(old)) co_return fresh;
  if (!old.refresh_token) co_return std::nullopt;
  std::optional<StoredToken> renewed = co_await Refreshed(http, declaration, options, old);
  if (renewed) co_return renewed->access_token;
  co_return RefreshedElsewhere(options, old);
}

std::optional<std::string> ServiceTokenNow(const Declaration& declaration,
                                           const ServerStartOptions& options) {
  boost::asio::io_context io;
  HttpClient http(io, declaration.alias);
  std::optional<std::string> token;
  boost::asio::co_spawn(
      io,
      [&]() -> boost::asio::awaitable<void> {
        token = co_await ServiceToken(http, declaration, options);
      },
      boost::asio::detached);
  io.run();
  return token;
}

}  // namespace bravebot
