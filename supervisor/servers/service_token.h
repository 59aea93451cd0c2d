// The token a service is sent, where `login` kept one (mcp-tokens): the
// access token of the declaration's digest and the service's origin,
// refreshed first where it expired or is about to (RFC 6749 section 6, the
// resource set to the declared url), the new tokens kept. One refresh at a
// time of an entry (its lock in mcp-tokens.locks/): a start that finds
// another refreshing it waits, then sends the token that one kept; the
// refresh of another service's entry holds up nothing. Not in an incognito
// session, which uses no stored token and stores none.
//
//   Result<std::optional<std::string>> bearer = co_await ServiceToken(http, declaration, options);
//   if (!bearer) return bearer.error();  // "svc was not started: ..."
//   channel.bearer = std::move(*bearer);  // sent as Authorization: Bearer
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_SERVICE_TOKEN_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_SERVICE_TOKEN_H_

#include <boost/asio/awaitable.hpp>
#include <chrono>
#include <optional>
#include <string>

#include "base/result.h"
#include "confine/declaration.h"
#include "supervisor/servers/http_client.h"
#include "supervisor/servers/server_start_options.h"

namespace bravebot {

// A token this close to its end is refreshed before it is sent.
inline constexpr auto kRefreshAhead = std::chrono::seconds(60);

// How long a start waits for another's refresh to end: that one's request
// ends within its 30 s timeout (Fetch), then it stores what it got.
inline constexpr auto kRefreshWait = std::chrono::seconds(45);

// The access token to send `declaration`'s service; nothing where none is
// kept, or where it expired and could not be refreshed (the service then
// answers 401, which says to sign in). Fails (kNotStarted, in words) only
// where a refresh is due and its lock cannot be had: the lock (or
// mcp-tokens.locks) is a link or cannot be opened, or another refresh of the
// same entry held it past `refresh_wait`.
// A token file that cannot be read sends no token, as none would be.
boost::asio::awaitable<Result<std::optional<std::string>>> ServiceToken(
    HttpClient& http, Declaration declaration, ServerStartOptions options,
    std::chrono::milliseconds refresh_wait = kRefreshWait);

// The same on a loop of its own, for a front end that has none running
// yet (mcp-run's bridge).
Result<std::optional<std::string>> ServiceTokenNow(const Declaration& declaration,
                                                   const ServerStartOptions& options);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_SERVICE_TOKEN_H_
