#include "cli/sign_in_words.h"

#include <chrono>
#include <ctime>

#include "confine/digest.h"
#include "confine/service_header.h"
#include "supervisor/auth/oauth_url.h"
#include "supervisor/store/token_store.h"

// The url of a client metadata document this build's packager publishes
// (MCP's authorization: a client id that is the url of a document about the
// client), for authorization servers that take them; none by default.
#ifndef BRAVEBOT_CLIENT_METADATA_URL
#define BRAVEBOT_CLIENT_METADATA_URL ""
#endif

namespace bravebot {

namespace {

std::string UtcMinute(std::int64_t seconds) {
  const std::time_t time = static_cast<std::time_t>(seconds);
  std::tm utc{};
  ::gmtime_r(&time, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%d %H:%M UTC", &utc);
  return text;
}

}  // namespace

Result<SignInPlan> SignInPlanFor(const Declaration& declaration) {
  if (declaration.transport != Transport::kHttp) {
    return Error(ErrorCode::kRefused,
                 declaration.alias +
                     " is a program, not a service: it has no sign-in (a key it needs is given "
                     "with add -e NAME=VALUE)");
  }
  for (const StoredHeader& header : declaration.headers) {
    if (SameHeaderName(header.name, "Authorization")) {
      return Error(ErrorCode::kRefused,
                   declaration.alias +
                       " sends an Authorization header of its own (add --header), so a sign-in "
                       "would have no place: declare it again without that header to sign in");
    }
  }
  if (!ReadSecureOAuthUrl(declaration.url, "its url")) {
    return Error(ErrorCode::kRefused,
                 declaration.alias +
                     " is declared at a plain http url, where a token would travel in the clear: "
                     "declare it at its https url to sign in");
  }
  SignInPlan plan{.alias = declaration.alias,
                  .service_url = declaration.url,
                  .scopes = declaration.sign_in.scopes,
                  .client_metadata_document = BRAVEBOT_CLIENT_METADATA_URL};
  if (!declaration.sign_in.id.empty()) plan.client_id = declaration.sign_in.id;
  if (!declaration.sign_in.secret.empty()) plan.client_secret = declaration.sign_in.secret;
  for (const StoredHeader& header : declaration.headers) {
    plan.service_headers.emplace_back(header.name, header.value);
  }
  return plan;
}

StoredToken ToStoredToken(const SignedIn& signed_in, std::string alias, std::string digest,
                          std::string origin) {
  StoredToken token{.alias = std::move(alias),
                    .digest = std::move(digest),
                    .origin = std::move(origin),
                    .access_token = signed_in.access_token,
                    .refresh_token = signed_in.refresh_token,
                    .expires_at = signed_in.expires_at,
                    .scope = std::nullopt,
                    .token_endpoint = signed_in.token_endpoint,
                    .client_id = signed_in.client_id,
                    .client_secret = signed_in.client_secret,
                    .client_authentication = signed_in.client_authentication};
  if (!signed_in.scope.empty()) token.scope = signed_in.scope;
  return token;
}

std::string SignedInUntil(const StoredToken& token) {
  return token.expires_at ? " until " + UtcMinute(*token.expires_at) : "";
}

std::string SignInWords(const std::optional<StoredToken>& token, std::int64_t now_seconds) {
  if (!token) return "not signed in";
  if (!token->expires_at || *token->expires_at > now_seconds) {
    return "signed in" + SignedInUntil(*token);
  }
  if (token->refresh_token) {
    return "signed in; its token expired at " + UtcMinute(*token->expires_at) +
           ", and is renewed at its next start";
  }
  return "its sign-in expired at " + UtcMinute(*token->expires_at);
}

std::optional<StoredToken> KeptTokenIn(const TokenFile& tokens, const Declaration& declaration) {
  if (declaration.transport != Transport::kHttp) return std::nullopt;
  Result<OAuthUrl> service = ReadOAuthUrl(declaration.url);
  if (!service) return std::nullopt;
  const StoredToken* token =
      tokens.Find(declaration.alias, ComputeDigest(declaration).hex, service->origin);
  return token == nullptr ? std::nullopt : std::optional<StoredToken>(*token);
}

std::optional<StoredToken> KeptToken(const ProfileDirectory& profile,
                                     const Declaration& declaration) {
  if (declaration.transport != Transport::kHttp) return std::nullopt;
  Result<TokenFile> tokens = TokenStore(profile).Read();
  return tokens ? KeptTokenIn(*tokens, declaration) : std::nullopt;
}

void AddSignInFields(nlohmann::json& summary, const Declaration& declaration,
                     const std::optional<StoredToken>& token) {
  if (declaration.transport != Transport::kHttp) return;
  summary["signed_in"] = token.has_value();
  if (token && token->expires_at) summary["token_expires_at"] = *token->expires_at;
}

std::optional<std::string> SharedProcessesWarning(const IsolationSupport& support) {
  if (support.pid_namespace || !support.unknown.empty()) return std::nullopt;
  return std::string(
      "On this machine a confined server has no PID namespace of its own (bravebot-mcp reach "
      "says \"processes: the machine's\"), so one running now can read this sign-in's address, "
      "its state with it, from the browser's command line, and answer in its place: stop the "
      "sessions running before you sign in (docs/login.md).");
}

}  // namespace bravebot
