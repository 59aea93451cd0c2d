#include "supervisor/servers/service_token.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <chrono>

#include "confine/digest.h"
#include "supervisor/auth/authorization_request.h"
#include "supervisor/auth/oauth_url.h"
#include "supervisor/auth/sign_in_reach.h"
#include "supervisor/servers/http_fetch.h"
#include "supervisor/store/token_refresh_lock.h"
#include "supervisor/store/token_store.h"

namespace bravebot {

namespace {

using Bearer = std::optional<std::string>;
const Bearer kNoToken;

// The access token of `token` where it can be sent and is good for
// kRefreshAhead more; nothing where it must be refreshed first.
std::optional<std::string> FreshAccessToken(const StoredToken& token) {
  if (!IsSendableToken(token.access_token)) return std::nullopt;
  if (token.expires_at && *token.expires_at <= SecondsSince1970Now() + kRefreshAhead.count()) {
    return std::nullopt;
  }
  return token.access_token;
}

// How often a start that waits for the refresh lock tries it again.
constexpr auto kRefreshLockRetry = std::chrono::milliseconds(50);

// The refresh lock of `entry`, waited for on the loop (a session serves
// its other servers meanwhile), for at most `wait`.
boost::asio::awaitable<Result<TokenRefreshLock>> RefreshLock(const ProfileDirectory& profile,
                                                             const StoredToken& entry,
                                                             std::chrono::milliseconds wait) {
  const auto until = std::chrono::steady_clock::now() + wait;
  boost::asio::steady_timer retry(co_await boost::asio::this_coro::executor);
  for (;;) {
    Result<std::optional<TokenRefreshLock>> lock = TryLockTokenRefresh(profile, entry);
    if (!lock) {
      co_return Error(ErrorCode::kNotStarted,
                      entry.alias + " was not started: its token expired, and " +
                          "could not be refreshed: " + lock.error().message());
    }
    if (*lock) co_return std::move(**lock);
    if (std::chrono::steady_clock::now() >= until) {
      const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(wait).count();
      co_return Error(ErrorCode::kNotStarted,
                      entry.alias + " was not started: its token expired, and another start " +
                          "has been refreshing it for more than " + std::to_string(seconds) +
                          " s (it holds " + TokenRefreshLockPath(profile, entry) +
                          "); nothing was sent, so as not to send the same refresh token " +
                          "twice: start it again once that one ends");
    }
    retry.expires_after(kRefreshLockRetry);
    co_await retry.async_wait(boost::asio::use_awaitable);
  }
}

// The entry of `token`'s declaration and origin as stored now; nothing
// where a logout or a changed declaration took it out, or the file cannot
// be read.
std::optional<StoredToken> StoredNow(const ServerStartOptions& options, const StoredToken& token) {
  Result<std::optional<StoredToken>> now =
      FindToken(*options.profile, token.alias, token.digest, token.origin);
  if (!now) return std::nullopt;
  return std::move(*now);
}

// The access token of `now` where it replaced `before`'s: another start
// renewed it, or a login signed in again. Told by the access token, not
// the refresh token, which a server that does not rotate them leaves as it
// was.
std::optional<std::string> Replaced(const StoredToken& before, const StoredToken& now) {
  if (now.access_token == before.access_token || !IsSendableToken(now.access_token)) {
    return std::nullopt;
  }
  return now.access_token;
}

// The refresh of `old` at its token endpoint, the new tokens kept; nothing
// where the server refused it or the entry changed meanwhile.
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
  // declaration or a login came while this one was sent: what they left
  // stands.
  Result<bool> renewed_here = RenewToken(*options.profile, old, token);
  if (!renewed_here || !*renewed_here) co_return std::nullopt;
  co_return token;
}

}  // namespace

boost::asio::awaitable<Result<Bearer>> ServiceToken(HttpClient& http, Declaration declaration,
                                                    ServerStartOptions options,
                                                    std::chrono::milliseconds refresh_wait) {
  if (options.incognito || options.profile == nullptr) co_return kNoToken;
  // Never in the clear: a plain http service (but the machine itself) gets
  // no token, as login signs in to none.
  Result<OAuthUrl> service = ReadSecureOAuthUrl(declaration.url, "its url");
  if (!service) co_return kNoToken;
  Result<std::optional<StoredToken>> found = FindToken(
      *options.profile, declaration.alias, ComputeDigest(declaration).hex, service->origin);
  if (!found || !*found) co_return kNoToken;
  const StoredToken old = std::move(**found);
  // A hand-edited file's token that no header can carry is not refreshed.
  if (!IsSendableToken(old.access_token)) co_return kNoToken;
  if (std::optional<std::string> fresh = FreshAccessToken(old)) co_return fresh;
  if (!old.refresh_token) co_return kNoToken;
  // One refresh of the entry at a time, held across the request: a second
  // start sending the same refresh token could have the whole grant revoked.
  Result<TokenRefreshLock> refreshing = co_await RefreshLock(*options.profile, old, refresh_wait);
  if (!refreshing) co_return refreshing.error();
  // Read again under the lock: the start that held it may have renewed the
  // token, which is then sent, and its refresh token not sent again.
  std::optional<StoredToken> now = StoredNow(options, old);
  if (!now) co_return kNoToken;
  if (now->access_token != old.access_token) co_return Replaced(old, *now);
  if (std::optional<std::string> fresh = FreshAccessToken(*now)) co_return fresh;
  if (!now->refresh_token) co_return kNoToken;
  std::optional<StoredToken> renewed = co_await Refreshed(http, declaration, options, *now);
  if (renewed) co_return Bearer(renewed->access_token);
  // A login takes no refresh lock: one may have signed in meanwhile.
  std::optional<StoredToken> after = StoredNow(options, *now);
  if (!after) co_return kNoToken;
  co_return Replaced(*now, *after);
}

Result<Bearer> ServiceTokenNow(const Declaration& declaration, const ServerStartOptions& options) {
  boost::asio::io_context io;
  HttpClient http(io, declaration.alias);
  Result<Bearer> token = kNoToken;
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
