// What signing in sends and what it reads back (RFC 6749 sections 4.1 and
// 6, with PKCE, RFC 7636, and the resource indicator, RFC 8707): the
// authorization url the browser opens, the redirect it comes back to on the
// loopback (RFC 8252), the token requests' bodies, and the token endpoint's
// answers. Pure: text in, text out; sending is the caller's.
//
//   std::string url = AuthorizationUrl({.authorization_endpoint = metadata.authorization_endpoint,
//                                       .client_id = id, .redirect_uri = LoopbackRedirectUri(port),
//                                       .code_challenge = pkce.challenge, .state = state,
//                                       .scope = scope, .resource = declared_url});
//   BRAVEBOT_ASSIGN_OR_RETURN(std::string code, ReadAuthorizationRedirect(target, state));
//   POST AuthorizationCodeBody({...}) to the token endpoint, then ParseTokenResponse(body).
#ifndef BRAVEBOT_SUPERVISOR_AUTH_AUTHORIZATION_REQUEST_H_
#define BRAVEBOT_SUPERVISOR_AUTH_AUTHORIZATION_REQUEST_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"

namespace bravebot {

// The form's content type, for the token requests' Content-Type header.
inline constexpr char kFormContentType[] = "application/x-www-form-urlencoded";

// `text` percent-encoded: every byte but A-Z a-z 0-9 - . _ ~ as %XX. What
// comes out is the same in a url's query and in a form's body.
std::string PercentEncode(std::string_view text);

// name=value pairs joined by '&', each side percent-encoded.
std::string FormEncode(const std::vector<std::pair<std::string, std::string>>& fields);

// A query or form body read back: '+' is a space, %XX a byte. nullopt for a
// broken escape.
std::optional<std::vector<std::pair<std::string, std::string>>> FormDecode(std::string_view text);

// "http://127.0.0.1:PORT/callback": the loopback redirect of RFC 8252
// section 7.3, by address rather than "localhost" (section 8.3).
std::string LoopbackRedirectUri(std::uint16_t port);

struct AuthorizationRequest {
  std::string authorization_endpoint;  // may hold a query of its own, kept
  std::string client_id;
  std::string redirect_uri;
  std::string code_challenge;  // S256's
  std::string state;
  std::optional<std::string> scope;  // space-separated; left out where nothing asks for one
  std::string resource;              // the declared url
};

// The url the browser opens: response_type=code and every field above.
std::string AuthorizationUrl(const AuthorizationRequest& request);

// The code of a redirect to the loopback, from its request target
// ("/callback?code=...&state=..."). kRefused where its path is not
// /callback, its state is not `expected_state` (a redirect some other page
// caused), it carries the server's error (saying which), or it has no code.
Result<std::string> ReadAuthorizationRedirect(std::string_view request_target,
                                              std::string_view expected_state);

// How a client proves itself at the token endpoint (RFC 6749 section
// 2.3.1): a public client (PKCE alone) by its client_id in the form; one
// with a secret by an Authorization: Basic header of its id and secret, or
// by the secret in the form (RFC 8414's client_secret_basic and
// client_secret_post).
enum class ClientAuthentication { kNone, kSecretBasic, kSecretPost };

// How a client with a secret proves itself at a server whose metadata lists
// `supported` (token_endpoint_auth_methods_supported; RFC 8414's default,
// client_secret_basic, where it lists none): Basic where it is offered,
// else the form. kRefused where it offers neither. kNone without a secret.
Result<ClientAuthentication> ChooseClientAuthentication(
    const std::optional<std::vector<std::string>>& supported, bool has_secret);

// RFC 8414's name of each way ("none", "client_secret_basic",
// "client_secret_post"), and back; nothing for another name.
std::string ClientAuthenticationName(ClientAuthentication authentication);
std::optional<ClientAuthentication> ClientAuthenticationNamed(std::string_view name);

// Whether a redirect to the loopback, by its request target, carries
// `expected_state`: an answer to this sign-in, whatever else it says. One
// that does not is some other page's (or process's), and is not let end
// the wait for this sign-in's.
bool CarriesState(std::string_view request_target, std::string_view expected_state);

struct AuthorizationCodeGrant {
  std::string code;
  std::string code_verifier;
  std::string redirect_uri;  // the one the authorization url gave
  std::string resource;      // the declared url
  std::string client_id;
  std::optional<std::string> client_secret;  // where the client has one
  ClientAuthentication authentication = ClientAuthentication::kNone;
};

struct RefreshGrant {
  std::string refresh_token;
  std::string resource;  // the declared url
  std::string client_id;
  std::optional<std::string> client_secret;
  ClientAuthentication authentication = ClientAuthentication::kNone;
};

// The token requests' bodies, form-encoded (RFC 6749 sections 4.1.3 and 6),
// with the client's id, and its secret where it proves itself in the form.
std::string AuthorizationCodeBody(const AuthorizationCodeGrant& grant);
std::string RefreshBody(const RefreshGrant& grant);

// The Authorization header's value of a client that proves itself with
// Basic: "Basic " and base64 of its id and secret, each form-encoded first
// (RFC 6749 section 2.3.1); nothing for any other.
std::optional<std::string> ClientAuthorization(const std::string& client_id,
                                               const std::optional<std::string>& client_secret,
                                               ClientAuthentication authentication);

struct TokenResponse {
  std::string access_token;
  std::string token_type;                  // "Bearer" in some case
  std::optional<std::int64_t> expires_in;  // seconds from when it was answered
  std::optional<std::string> refresh_token;
  std::optional<std::string> scope;  // where it differs from the one asked for
};

// When a token given `expires_in` seconds of life at `now_seconds` stops
// being good, in seconds since 1970; nothing where the server gave no
// lifetime. A lifetime past ten years is read as ten years, so that the
// time fits any clock's count.
std::optional<std::int64_t> ExpiresAt(const std::optional<std::int64_t>& expires_in,
                                      std::int64_t now_seconds);

// Seconds since 1970 (UTC) now: the clock a token's expiry is kept in and
// compared with.
std::int64_t SecondsSince1970Now();

// Whether `token` can go in an Authorization header and a form as it is:
// visible ASCII, as RFC 6750's b64token and RFC 6749's tokens are. Anything
// else (a line break above all) would let a server write headers of its own.
bool IsSendableToken(std::string_view token);

// A token endpoint's answer of 200 (RFC 6749 section 5.1). kRefused where it
// has no access_token, or a token_type other than Bearer (in any case),
// which is the only kind this client can send.
Result<TokenResponse> ParseTokenResponse(std::string_view body);

struct OAuthErrorResponse {
  std::string error;  // "invalid_grant", "invalid_client", ...
  std::optional<std::string> error_description;
  std::optional<std::string> error_uri;

  // "invalid_grant: the code has expired", escaped for a terminal, the
  // error cut at 100 bytes and the description at 500, each before a
  // character.
  std::string Shown() const;
};

// A token endpoint's answer of 400 or 401 (RFC 6749 section 5.2). kRefused
// where it is not one (no `error`).
Result<OAuthErrorResponse> ParseOAuthError(std::string_view body);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_AUTH_AUTHORIZATION_REQUEST_H_
