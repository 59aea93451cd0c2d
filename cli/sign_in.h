// Signing in to a service, as MCP's authorization specification
// (2025-11-25) has a client do it, in the order it says:
//   1. the service asked without a token: its 401 and Bearer challenge;
//   2. its protected resource metadata (RFC 9728): from the challenge's
//      resource_metadata, else the well-known urls;
//   3. the metadata of its authorization server (RFC 8414, or OpenID
//      discovery);
//   4. a client: the one the person gave (`add --client-id`), else the
//      build's client metadata document where the server takes documents,
//      else one registered at the server (RFC 7591);
//   5. the browser sent to the authorization url (PKCE S256, state, the
//      resource: the declared url), its answer taken on the loopback;
//   6. the code exchanged for tokens at the token endpoint.
// What it fetches is bounded, no redirect is followed, and every place but
// the service itself must be https before it is sent anything: plain http
// only where the declared service is on this machine too, as the tests'
// servers are (supervisor/auth/sign_in_reach.h).
//
//   BRAVEBOT_ASSIGN_OR_RETURN(SignedIn tokens,
//       co_await SignIn(http, plan, [](const std::string& url) { OpenInBrowser(url); }));
#ifndef BRAVEBOT_CLI_SIGN_IN_H_
#define BRAVEBOT_CLI_SIGN_IN_H_

#include <boost/asio/awaitable.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "supervisor/auth/authorization_request.h"
#include "supervisor/servers/http_client.h"

namespace bravebot {

struct SignInPlan {
  std::string alias = {};                     // names the service in what is said
  std::string service_url = {};               // the declared url, and the resource signed in for
  std::optional<std::string> client_id = {};  // add --client-id
  std::optional<std::string> client_secret = {};  // add --client-secret-file
  std::vector<std::string> scopes = {};           // add --scope, in order
  // The url of this build's client metadata document ("" for none).
  std::string client_metadata_document = {};
  std::chrono::seconds browser_time{300};  // for the person to sign in
  // Its declared headers (add --header), sent to the service's origin
  // alone, as a session sends them: a service may want one beside a token.
  std::vector<std::pair<std::string, std::string>> service_headers = {};
  // Puts a [y/N] question to the person, true for a yes: whether a
  // declared client's secret may go to a token endpoint elsewhere than the
  // service. Empty where nobody can be asked (no terminal): it goes nowhere
  // else then.
  std::function<bool(const std::string& question)> ask = {};
};

// What signing in gives, for the token store and for refreshing.
struct SignedIn {
  std::string access_token;
  std::optional<std::string> refresh_token;
  // When the access token stops being good, in seconds since 1970, where
  // the server said.
  std::optional<std::int64_t> expires_at;
  std::string scope;           // as asked, or as the server granted it
  std::string token_endpoint;  // where a refresh goes
  std::string client_id;       // the client signed in as
  // A secret the server gave the client it registered for this sign-in
  // (a declared client's stays in mcp.json), and how the client proves
  // itself at the token endpoint, which a refresh does again.
  std::optional<std::string> client_secret;
  ClientAuthentication client_authentication = ClientAuthentication::kNone;
};

// Signs in to `plan.service_url`, sending `plan.service_headers` with every
// request `http` makes to its origin. `note` is told of an answer at the
// loopback that is not this sign-in's, refused and waited past. `open` is given the authorization
// url once the loopback listens, to show the person and open their browser. Says in words which
// step failed and why, naming the alias.
boost::asio::awaitable<Result<SignedIn>> SignIn(HttpClient& http, SignInPlan plan,
                                                std::function<void(const std::string&)> open,
                                                std::function<void(const std::string&)> note = {});

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_SIGN_IN_H_
