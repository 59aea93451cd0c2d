// Between a declaration, the sign-in (cli/sign_in.h) and mcp-tokens: the
// plan login signs in with, the entry it stores, and how long it holds.
#ifndef BRAVEBOT_CLI_SIGN_IN_WORDS_H_
#define BRAVEBOT_CLI_SIGN_IN_WORDS_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "base/result.h"
#include "cli/sign_in.h"
#include "confine/declaration.h"
#include "launcher/isolation.h"
#include "supervisor/store/profile_directory.h"
#include "supervisor/store/token_file.h"

namespace bravebot {

// How to sign in to `declaration`'s service. kRefused for a program (its
// keys are given with -e) and for a service that sends an Authorization
// header of its own (add --header), which a token would stand beside.
Result<SignInPlan> SignInPlanFor(const Declaration& declaration);

// What mcp-tokens keeps of `signed_in`, for the declaration `alias` of
// `digest` and the service's `origin`.
StoredToken ToStoredToken(const SignedIn& signed_in, std::string alias, std::string digest,
                          std::string origin);

// " until 2026-12-06 10:30 UTC", or "" where the server gave no lifetime.
std::string SignedInUntil(const StoredToken& token);

// A service's sign-in, as get and list say it: "signed in until 2026-12-06 10:30
// UTC", "signed in; its token expired at ..., and is renewed at its next
// start", "its sign-in expired at ...", or "not signed in".
std::string SignInWords(const std::optional<StoredToken>& token, std::int64_t now_seconds);

// The token `tokens` keeps for `declaration`, for those words: nothing for
// a program, or where none is kept.
std::optional<StoredToken> KeptTokenIn(const TokenFile& tokens, const Declaration& declaration);

// The same, read from `profile`'s mcp-tokens: nothing also where the file
// cannot be read (list says why; get, of one declaration, shows the rest).
std::optional<StoredToken> KeptToken(const ProfileDirectory& profile,
                                     const Declaration& declaration);

// The --json fields of a service's sign-in, added to `summary`: "signed_in",
// and "token_expires_at" where the token has a lifetime; none for a program.
void AddSignInFields(nlohmann::json& summary, const Declaration& declaration,
                     const std::optional<StoredToken>& token);

// What login says first where `support` gives a confined server no PID
// namespace of its own: it then sees the browser's command line, which
// holds the sign-in's address, its state with it. Nothing where servers
// see no process of the machine's.
std::optional<std::string> SharedProcessesWarning(const IsolationSupport& support);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_SIGN_IN_WORDS_H_
