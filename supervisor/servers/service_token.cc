#include "supervisor/servers/service_token.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include "confine/digest.h"
#include "supervisor/auth/authorization_request.h"
#include "supervisor/auth/oauth_url.h"
#include "supervisor/servers/http_fetch.h"
#include "supervisor/store/token_store.h"

namespace bravebot {

namespace {

std::int64_t SecondsNow() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
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
  const std::string digest = ComputeDigest(declaration).hex;
  Result<std::optional<StoredToken>> found =
      FindToken(*options.profile, declaration.alias, digest, service->origin);
  if (!found || !*found) co_return std::nullopt;
  const StoredToken old = std::move(**found);
  StoredToken token = old;
  const bool fresh = !token.expires_at || *token.expires_at > SecondsNow() + kRefreshAhead.count();
  // A hand-edited file's token that no header can carry is not sent.
  if (!IsSendableToken(token.access_token)) co_return std::nullopt;
  if (fresh) co_return token.access_token;
  if (!token.refresh_token) co_return std::nullopt;

  const RefreshGrant grant{.refresh_token = *token.refresh_token,
                           .resource = declaration.url,
                           .client_id = token.client_id,
                           .client_secret = declaration.sign_in.secret.empty()
                                                ? std::nullopt
                                                : std::optional(declaration.sign_in.secret)};
  HttpRequest refresh{"POST",
                      {{"Content-Type", kFormContentType}, {"Accept", "application/json"}},
                      RefreshBody(grant)};
  Result<Fetched> answer = co_await Fetch(http, token.token_endpoint, std::move(refresh));
  if (!answer || answer->head.status != 200) co_return std::nullopt;
  Result<TokenResponse> renewed = ParseTokenResponse(answer->body);
  if (!renewed) co_return std::nullopt;
  token.access_token = renewed->access_token;
  // A server that rotates refresh tokens sends a new one; one that does
  // not leaves the old one good.
  if (renewed->refresh_token) token.refresh_token = renewed->refresh_token;
  token.expires_at =
      renewed->expires_in ? std::optional(SecondsNow() + *renewed->expires_in) : std::nullopt;
  if (renewed->scope) token.scope = renewed->scope;
  // Kept before it is used: a refresh token rotated and then lost would
  // leave the person to sign in again. Not where a logout, a change of the
  // declaration or another session's refresh came while this one was sent:
  // what they left stands, and this token is not sent.
  Result<bool> renewed_here = RenewToken(*options.profile, old, token);
  if (!renewed_here || !*renewed_here) co_return std::nullopt;
  co_return token.access_token;
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
