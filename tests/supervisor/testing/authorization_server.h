// A local OAuth authorization server and the MCP service it protects, on
// one loopback port, for the sign-in tests: a provider's remote MCP server
// (GitHub's, Google's) as MCP's authorization specification describes it,
// each step checked as its RFC says, so a client that skips one is refused
// here as it would be there:
// - the service answers 401 with a Bearer challenge until a token it
//   issued, for its own url and not expired, comes (RFC 6750);
// - its protected resource metadata (RFC 9728) and the server's metadata
//   (RFC 8414, or OpenID discovery) at their well-known paths;
// - a client registered beforehand, registered dynamically (RFC 7591), or
//   named by the url of its metadata document;
// - the authorization code flow with PKCE, S256 only (RFC 7636), a
//   loopback redirect on any port (RFC 8252), the resource (RFC 8707);
// - a client's secret in a Basic header or the form, only the ways its
//   metadata lists (RFC 6749 section 2.3.1);
// - refresh tokens, rotated at each use (or not: rotate_refresh_tokens).
// Every request is kept, so a test sees where a token was sent.
//
//   AuthorizationServer server({.client_id = "desk", .client_secret = "s3"});
//   ... bravebot-mcp add svc --http <server.ServiceUrl()> --client-id desk ...
//   server.Requests()  // each with its Authorization header
#ifndef BRAVEBOT_TESTS_SUPERVISOR_TESTING_AUTHORIZATION_SERVER_H_
#define BRAVEBOT_TESTS_SUPERVISOR_TESTING_AUTHORIZATION_SERVER_H_

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bravebot::testing {

struct AuthorizationServerOptions {
  // The 401 names the protected resource metadata (resource_metadata=...);
  // false: a bare challenge, and a client finds it at the well-known path.
  bool challenge_names_metadata = true;
  // The 401 has no WWW-Authenticate header at all.
  bool sends_challenge = true;
  // The issuer's path after the origin ("" or "/tenant"), so its metadata
  // is found only by RFC 8414's path insertion.
  std::string issuer_path = {};
  // Its metadata only at OpenID discovery's path, not RFC 8414's.
  bool openid_discovery_only = false;
  // What the metadata offers.
  bool dynamic_registration = true;
  bool client_id_metadata_documents = false;
  bool s256 = true;
  // A client registered beforehand, as at a provider's console ("" none),
  // and its secret, then asked for at the token endpoint ("" none).
  std::string client_id = {};
  std::string client_secret = {};
  // The ways its token endpoint takes a client's secret, as its metadata
  // lists them (beside "none"); a secret sent any other way is refused.
  std::vector<std::string> secret_methods = {"client_secret_basic", "client_secret_post"};
  // A client registered dynamically is given a secret after all, to be
  // sent the default way (client_secret_basic).
  bool registration_gives_secret = false;
  // Client metadata documents by their url, standing in for fetching them:
  // a client_id that is one of these urls is that document's client.
  std::map<std::string, std::string> client_documents = {};
  // The scope the challenge names and the metadata lists.
  std::string scope = "mcp:read mcp:write";
  // Its authorization server's metadata grows by a field this long: a
  // document no sign-in needs.
  std::size_t metadata_padding = 0;
  // The token endpoint answers every request 200 with this body instead.
  std::optional<std::string> token_answer = {};
  std::chrono::seconds token_lifetime{3600};
  // The authorization endpoint sends back this state instead of the
  // client's: an answer forged by someone else.
  std::optional<std::string> forged_state = {};
  // Tokens are issued for this resource rather than the one asked for: a
  // token for another audience, which the service refuses.
  std::optional<std::string> audience_instead = {};
  // Each refresh is answered this long after it came, the server doing
  // nothing else meanwhile: two clients that refresh at once both send the
  // same refresh token before either has an answer.
  std::chrono::milliseconds refresh_answer_delay{0};
  // The service answers every POST with a redirect to this url: a 307, or
  // the status given (308, a move for good).
  std::optional<std::string> service_redirect = {};
  int service_redirect_status = 307;
  // Only tools/call is redirected: the service moves once it has started.
  bool redirect_only_calls = false;
  // The protected resource metadata names this issuer instead of its own:
  // a service that sends signing in to another authorization server.
  std::optional<std::string> authorization_server = {};
  // Authorizes for any resource asked for, not only its own service: an
  // authorization server a service names that is not its provider's.
  bool any_resource = false;
  // A refresh token used a second time is taken as stolen (RFC 9700
  // section 4.14.2): every refresh token it gave is revoked.
  bool revoke_on_reuse = false;
  // Each refresh token is good once, a new one given at each refresh;
  // false: the one given at sign-in stays good, and a refresh gives none.
  bool rotate_refresh_tokens = true;
};

struct RecordedRequest {
  std::string method;
  std::string target;         // path and query
  std::string authorization;  // the Authorization header, "" without one
  std::string body;
  std::map<std::string, std::string> headers;  // every header, names lowercase
};

class AuthorizationServer {
 public:
  explicit AuthorizationServer(AuthorizationServerOptions options = {});
  ~AuthorizationServer();
  AuthorizationServer(const AuthorizationServer&) = delete;
  AuthorizationServer& operator=(const AuthorizationServer&) = delete;

  std::string Origin() const;      // http://127.0.0.1:PORT
  std::string ServiceUrl() const;  // the protected MCP service: Origin()/mcp
  std::string Issuer() const;      // Origin() + issuer_path

  std::vector<RecordedRequest> Requests() const;
  // Tokens given at the token endpoint, by grant type
  // ("authorization_code", "refresh_token").
  int TokensIssued(const std::string& grant_type) const;
  // Client secrets that came at the token endpoint, by the way they came
  // ("client_secret_basic", "client_secret_post").
  int SecretsSentBy(const std::string& method) const;
  // Every access token issued so far expires now (refresh tokens stay).
  void ExpireAccessTokens();

  struct State;

 private:
  std::unique_ptr<State> state_;
};

}  // namespace bravebot::testing

#endif  // BRAVEBOT_TESTS_SUPERVISOR_TESTING_AUTHORIZATION_SERVER_H_
