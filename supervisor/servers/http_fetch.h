// One HTTP request and its whole answer, for a coroutine: what signing in
// and refreshing a token fetch (metadata, a token, a registration), small
// documents read whole, unlike a service's streams.
//
//   Result<Fetched> metadata = co_await Fetch(http, url, {"GET", {}, ""});
//   if (metadata && metadata->head.status == 200) Read(metadata->body);
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_HTTP_FETCH_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_HTTP_FETCH_H_

#include <boost/asio/awaitable.hpp>
#include <chrono>
#include <optional>
#include <string>

#include "base/result.h"
#include "supervisor/servers/http_client.h"

namespace bravebot {

struct Fetched {
  HttpResponseHead head;
  std::string body;
};

// A document this large is not one a sign-in needs: the transfer is ended.
inline constexpr std::size_t kMostFetched = std::size_t{1024} * 1024;

// Sends `request` to `url` and gives its answer, whatever its status, once
// whole; a redirect is an answer like another (its Location in the head),
// never followed. An error where the transfer failed (HttpClient's words),
// took longer than `timeout`, or sent more than kMostFetched bytes.
boost::asio::awaitable<Result<Fetched>> Fetch(
    HttpClient& http, std::string url, HttpRequest request,
    std::chrono::milliseconds timeout = std::chrono::seconds(30));

// A form POSTed to a token endpoint (RFC 6749 section 3.2), answered in
// JSON, with the client's Authorization header where it proves itself so
// (ClientAuthorization, supervisor/auth/authorization_request.h).
HttpRequest TokenEndpointRequest(std::string form,
                                 const std::optional<std::string>& client_authorization);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_HTTP_FETCH_H_
