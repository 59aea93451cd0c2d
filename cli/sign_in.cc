#include "cli/sign_in.h"

#include <algorithm>
#include <boost/asio/this_coro.hpp>

#include "base/shown_text.h"
#include "cli/loopback_redirect.h"
#include "supervisor/auth/authorization_challenge.h"
#include "supervisor/auth/authorization_metadata.h"
#include "supervisor/auth/authorization_request.h"
#include "supervisor/auth/client_registration.h"
#include "supervisor/auth/oauth_url.h"
#include "supervisor/auth/pkce.h"
#include "supervisor/auth/sign_in_reach.h"
#include "supervisor/mcp/mcp_connection.h"
#include "supervisor/mcp/mcp_startup.h"
#include "supervisor/mcp/streamable_http.h"
#include "supervisor/servers/http_fetch.h"

namespace bravebot {

namespace asio = boost::asio;

namespace {

// "weather could not be signed in to: STEP: WHY".
Error Failed(const SignInPlan& plan, const std::string& step, const Error& why) {
  return Error(why.code(),
               plan.alias + " could not be signed in to: " + step + ": " + why.message());
}

Error Failed(const SignInPlan& plan, const std::string& step, const std::string& why) {
  return Failed(plan, step, Error(ErrorCode::kRefused, why));
}

HttpRequest Get() { return {"GET", {{"Accept", "application/json"}}, ""}; }

// The first step: the service asked to initialize without a token. What
// its 401 asks for; nothing where it named no Bearer challenge.
asio::awaitable<Result<std::optional<BearerChallenge>>> AskService(HttpClient& http,
                                                                   const SignInPlan& plan) {
  McpConnection connection;
  McpStartup startup(connection, 1);
  StreamableHttpClient client;
  Result<Fetched> answer = co_await Fetch(http, plan.service_url, client.Post(startup.Begin()));
  if (!answer) co_return Failed(plan, "asking the service", answer.error());
  if (answer->head.status != 401) {
    co_return Failed(plan, "asking the service",
                     answer->head.status / 100 == 2
                         ? "it answered without asking for a sign-in, so there is none to make"
                         : "it answered HTTP " + std::to_string(answer->head.status) +
                               " where a service that asks for a sign-in answers 401");
  }
  // A 401 without a challenge, or with one that cannot be read, still asks
  // for a sign-in: MCP's specification has the client look for the
  // metadata at the well-known urls then, without a scope to ask for.
  Result<std::optional<BearerChallenge>> challenge =
      ReadBearerChallenge(answer->head.www_authenticate);
  co_return challenge ? *challenge : std::nullopt;
}

// The second: the first of the protected resource metadata's urls that has
// one, checked against the declared url.
asio::awaitable<Result<ProtectedResourceMetadata>> FindResourceMetadata(
    HttpClient& http, const SignInPlan& plan, const std::optional<BearerChallenge>& challenge) {
  const std::string step = "finding the service's protected resource metadata";
  Result<std::vector<ResourceMetadataUrl>> urls = ResourceMetadataUrls(
      plan.service_url, challenge ? challenge->resource_metadata : std::nullopt);
  if (!urls) co_return Failed(plan, step, urls.error());
  for (const ResourceMetadataUrl& at : *urls) {
    if (Status reachable =
            ReachableWhileSigningIn(plan.service_url, at.url,
                                    at.source == ResourceMetadataSource::kNamedByChallenge
                                        ? "the metadata url its 401 names"
                                        : "the well-known metadata url of its address");
        !reachable) {
      co_return Failed(plan, step, reachable.error());
    }
    Result<Fetched> answer = co_await Fetch(http, at.url, Get());
    if (!answer) co_return Failed(plan, step, answer.error());
    // A url the service named must have it; a well-known one may not.
    if (answer->head.status == 404 && at.source != ResourceMetadataSource::kNamedByChallenge) {
      continue;
    }
    if (answer->head.status != 200) {
      co_return Failed(plan, step, "it answered HTTP " + std::to_string(answer->head.status));
    }
    Result<ProtectedResourceMetadata> metadata =
        ParseProtectedResourceMetadata(answer->body, plan.service_url, at);
    if (!metadata) co_return Failed(plan, step, metadata.error());
    co_return metadata;
  }
  co_return Failed(plan, step,
                   "its 401 named none, and none is at the well-known urls: the service does not "
                   "say where to sign in");
}

// The third: the first authorization server's metadata.
asio::awaitable<Result<AuthorizationServerMetadata>> FindServerMetadata(HttpClient& http,
                                                                        const SignInPlan& plan,
                                                                        const std::string& issuer) {
  const std::string step = "finding its authorization server's metadata";
  if (Status reachable =
          ReachableWhileSigningIn(plan.service_url, issuer, "the authorization server it names");
      !reachable) {
    co_return Failed(plan, step, reachable.error());
  }
  Result<std::vector<std::string>> urls = AuthorizationServerMetadataUrls(issuer);
  if (!urls) co_return Failed(plan, step, urls.error());
  for (const std::string& at : *urls) {
    Result<Fetched> answer = co_await Fetch(http, at, Get());
    if (!answer) co_return Failed(plan, step, answer.error());
    if (answer->head.status == 404) continue;
    if (answer->head.status != 200) {
      co_return Failed(plan, step, "it answered HTTP " + std::to_string(answer->head.status));
    }
    Result<AuthorizationServerMetadata> metadata =
        ParseAuthorizationServerMetadata(answer->body, issuer);
    if (!metadata) co_return Failed(plan, step, metadata.error());
    co_return metadata;
  }
  co_return Failed(plan, step, "none is at the well-known urls of its issuer");
}

struct Client {
  std::string id = {};
  std::optional<std::string> secret = {};
  ClientAuthentication authentication = ClientAuthentication::kNone;
  bool registered = false;  // for this sign-in, its secret (if any) the server's
};

// The fourth: the client to sign in as, in the specification's order of
// preference.
asio::awaitable<Result<Client>> ChooseClient(HttpClient& http, const SignInPlan& plan,
                                             const AuthorizationServerMetadata& server,
                                             const std::string& redirect_uri) {
  if (plan.client_id) {
    Result<ClientAuthentication> authentication = ChooseClientAuthentication(
        server.token_endpoint_auth_methods_supported, plan.client_secret.has_value());
    if (!authentication) co_return Failed(plan, "choosing a client", authentication.error());
    co_return Client{*plan.client_id, plan.client_secret, *authentication};
  }
  if (server.client_id_metadata_document_supported && !plan.client_metadata_document.empty()) {
    co_return Client{plan.client_metadata_document};
  }
  if (!server.registration_endpoint) {
    co_return Failed(plan, "choosing a client",
                     "its authorization server registers no clients: create one at the provider "
                     "and give it with `bravebot-mcp add " +
                         plan.alias + " --http URL --client-id ID`");
  }
  const std::string step = "registering a client at its authorization server";
  HttpRequest registration{"POST",
                           {{"Content-Type", "application/json"}, {"Accept", "application/json"}},
                           RegistrationBody(redirect_uri)};
  Result<Fetched> answer =
      co_await Fetch(http, *server.registration_endpoint, std::move(registration));
  if (!answer) co_return Failed(plan, step, answer.error());
  if (answer->head.status != 201 && answer->head.status != 200) {
    Result<OAuthErrorResponse> error = ParseOAuthError(answer->body);
    co_return Failed(
        plan, step,
        error ? error->Shown() : "it answered HTTP " + std::to_string(answer->head.status));
  }
  Result<RegisteredClient> registered = ParseRegistrationResponse(answer->body);
  if (!registered) co_return Failed(plan, step, registered.error());
  co_return Client{registered->client_id, registered->client_secret, registered->authentication,
                   /*registered=*/true};
}

// A declared client's secret goes to the token endpoint of whatever
// authorization server the service names: a service may name any. Where
// that is not the service's own origin, only the person can say it is the
// provider they made the client at; nobody asked, it goes nowhere.
Status DeclaredSecretMayGoTo(const SignInPlan& plan, const AuthorizationServerMetadata& server) {
  if (!plan.client_id || !plan.client_secret) return {};
  Result<OAuthUrl> service = ReadOAuthUrl(plan.service_url);
  Result<OAuthUrl> token = ReadOAuthUrl(server.token_endpoint);
  if (!service || !token) return Error(ErrorCode::kRefused, "its token endpoint cannot be read");
  if (token->origin == service->origin) return {};
  const std::string where = EscapeControlCharacters(token->origin);
  const std::string client = EscapeControlCharacters(*plan.client_id);
  const std::string question =
      "  " + plan.alias + " names " + EscapeControlCharacters(server.issuer) +
      " as where it signs in, and the secret of client " + client +
      " (add --client-secret-file) goes to its token endpoint at " + where +
      ".\n  Is that the provider you made client " + client + " at? [y/N]";
  if (plan.ask && plan.ask(question)) return {};
  return Error(ErrorCode::kRefused,
               "the secret of client " + client + " would go to " + where +
                   ", an authorization server the service names elsewhere than itself: " +
                   (plan.ask ? "you said no, so nothing was sent there"
                             : "run login at a terminal, which asks whether that is where the "
                               "client was made; nothing was sent there"));
}

// The scope asked for: the person's, else the challenge's, else all the
// service lists; nothing where none of them says.
std::optional<std::string> ScopeToAsk(const SignInPlan& plan,
                                      const std::optional<BearerChallenge>& challenge,
                                      const ProtectedResourceMetadata& resource) {
  std::vector<std::string> scopes = plan.scopes;
  if (scopes.empty() && challenge && challenge->scope) return challenge->scope;
  if (scopes.empty() && resource.scopes_supported) scopes = *resource.scopes_supported;
  if (scopes.empty()) return std::nullopt;
  std::string joined;
  for (const std::string& scope : scopes) joined += (joined.empty() ? "" : " ") + scope;
  return joined;
}

}  // namespace

asio::awaitable<Result<SignedIn>> SignIn(HttpClient& http, SignInPlan plan,
                                         std::function<void(const std::string&)> open,
                                         std::function<void(const std::string&)> note) {
  if (!plan.service_headers.empty()) http.SendToOriginOnly(plan.service_url, plan.service_headers);
  Result<std::optional<BearerChallenge>> challenge = co_await AskService(http, plan);
  if (!challenge) co_return challenge.error();
  Result<ProtectedResourceMetadata> resource =
      co_await FindResourceMetadata(http, plan, *challenge);
  if (!resource) co_return resource.error();
  Result<AuthorizationServerMetadata> server =
      co_await FindServerMetadata(http, plan, resource->authorization_servers.front());
  if (!server) co_return server.error();
  // Its endpoints before any is sent a request (the issuer was, above).
  if (Status secure = ServerReachableWhileSigningIn(plan.service_url, *server); !secure) {
    co_return Failed(plan, "reading its authorization server's metadata", secure.error());
  }
  if (!server->SupportsGrant("authorization_code")) {
    co_return Failed(plan, "reading its authorization server's metadata",
                     "it offers no authorization code grant, the only one this client uses");
  }
  if (Status secret = DeclaredSecretMayGoTo(plan, *server); !secret) {
    co_return Failed(plan, "choosing a client", secret.error());
  }

  Result<std::unique_ptr<LoopbackRedirect>> redirect =
      LoopbackRedirect::Open(co_await asio::this_coro::executor);
  if (!redirect) co_return Failed(plan, "waiting for the browser", redirect.error());
  const std::string redirect_uri = (*redirect)->Url();
  Result<Client> client = co_await ChooseClient(http, plan, *server, redirect_uri);
  if (!client) co_return client.error();

  Result<PkcePair> pkce = NewPkcePair();
  Result<std::string> state = NewState();
  if (!pkce) co_return Failed(plan, "making the sign-in's secrets", pkce.error());
  if (!state) co_return Failed(plan, "making the sign-in's secrets", state.error());
  std::optional<std::string> scope = ScopeToAsk(plan, *challenge, *resource);
  open(AuthorizationUrl({.authorization_endpoint = server->authorization_endpoint,
                         .client_id = client->id,
                         .redirect_uri = redirect_uri,
                         .code_challenge = pkce->challenge,
                         .state = *state,
                         .scope = scope,
                         .resource = plan.service_url}));
  Result<std::string> code = co_await (*redirect)->Receive(*state, plan.browser_time, note);
  if (!code) co_return Failed(plan, "waiting for the browser", code.error());

  const std::string step = "exchanging the code for tokens";
  const AuthorizationCodeGrant grant{.code = *code,
                                     .code_verifier = pkce->verifier,
                                     .redirect_uri = redirect_uri,
                                     .resource = plan.service_url,
                                     .client_id = client->id,
                                     .client_secret = client->secret,
                                     .authentication = client->authentication};
  Result<Fetched> answer =
      co_await Fetch(http, server->token_endpoint,
                     TokenEndpointRequest(
                         AuthorizationCodeBody(grant),
                         ClientAuthorization(client->id, client->secret, client->authentication)));
  if (!answer) co_return Failed(plan, step, answer.error());
  if (answer->head.status != 200) {
    Result<OAuthErrorResponse> error = ParseOAuthError(answer->body);
    co_return Failed(
        plan, step,
        error ? error->Shown() : "it answered HTTP " + std::to_string(answer->head.status));
  }
  Result<TokenResponse> tokens = ParseTokenResponse(answer->body);
  if (!tokens) co_return Failed(plan, step, tokens.error());
  const std::int64_t now = SecondsSince1970Now();
  co_return SignedIn{.access_token = tokens->access_token,
                     .refresh_token = tokens->refresh_token,
                     .expires_at = ExpiresAt(tokens->expires_in, now),
                     .scope = tokens->scope.value_or(scope.value_or("")),
                     .token_endpoint = server->token_endpoint,
                     .client_id = client->id,
                     .client_secret = client->registered ? client->secret : std::nullopt,
                     .client_authentication = client->authentication};
}

}  // namespace bravebot
