// mcp-tokens: the tokens signing in to a service earned, one entry per
// declaration and origin. Pure: text in, values out.
//
//   {"version": 1, "tokens": [
//     {"alias": "docs", "digest": "<the declaration's 64 hex digits>", "origin":
//     "https://mcp.example.com",
//      "access_token": "...", "refresh_token": "...", "expires_at": 1765000000,
//      "scope": "files:read", "token_endpoint": "https://auth.example.com/token",
//      "client_id": "...", "client_secret": "...",
//      "client_authentication": "client_secret_basic"}]}
//
// Keyed by the declaration's alias and digest, so a declaration changed, removed or
// moved to another url finds none of its old tokens, and by the origin they
// may be sent to. The file holds secrets: nothing read from it is ever shown.
#ifndef BRAVEBOT_SUPERVISOR_STORE_TOKEN_FILE_H_
#define BRAVEBOT_SUPERVISOR_STORE_TOKEN_FILE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "confine/declaration.h"
#include "supervisor/auth/authorization_request.h"

namespace bravebot {

inline constexpr int kTokenFormatVersion = 1;

struct StoredToken {
  // The declaration's alias and digest: two aliases declared alike (one
  // service, two accounts) each keep their own.
  std::string alias = {};
  std::string digest = {};  // the declaration's, 64 hex digits
  std::string origin = {};  // "https://host[:port]", the only place the token goes
  std::string access_token = {};
  std::optional<std::string> refresh_token = {};
  // When the access token stops being good, in seconds since 1970 (UTC);
  // nothing where the server did not say.
  std::optional<std::int64_t> expires_at = {};
  std::optional<std::string> scope = {};
  std::string token_endpoint = {};  // where a refresh goes
  std::string client_id = {};       // the client the tokens were issued to
  // A secret the server gave the client it registered for this sign-in (a
  // client the person declared keeps its secret in mcp.json).
  std::optional<std::string> client_secret = {};
  // How the client proves itself at token_endpoint; nothing for an entry
  // kept before this was stored, which sent a secret in the form.
  std::optional<ClientAuthentication> client_authentication = {};

  bool operator==(const StoredToken&) const = default;
};

struct TokenFile {
  std::vector<StoredToken> tokens;

  const StoredToken* Find(std::string_view alias, std::string_view digest,
                          std::string_view origin) const;
  // Puts `token` in place of the one of its alias, digest and origin, if any.
  void Put(StoredToken token);
  // Forgets every token of `alias`, whatever declaration of it earned it
  // (mcp.json changed by hand leaves one of another digest); returns how
  // many.
  size_t Forget(std::string_view alias);
  // Forgets every token whose alias and digest no declaration of
  // `declarations` has now (one changed, removed or moved); returns how many.
  size_t KeepOnlyThoseOf(const std::vector<Declaration>& declarations);
};

// Reads the text of mcp-tokens. Anything but the format above makes the
// whole file kCorrupt, naming `shown_path` and the entry, never quoting it.
Result<TokenFile> ParseTokenFile(std::string_view text, const std::string& shown_path);
std::string SerializeTokenFile(const TokenFile& file);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_STORE_TOKEN_FILE_H_
