// What a service's 401 (or 403) asks for, read from its WWW-Authenticate
// header (RFC 9110 section 11.6.1; the Bearer scheme of RFC 6750 section 3
// with RFC 9728's resource_metadata): the protected resource metadata's URL
// and the scope to sign in with.
//
//   auto bearer = ReadBearerChallenge(R"(Bearer resource_metadata="https://x/.well-known/...")");
//   if (bearer.ok() && *bearer) Discover(bearer->value().resource_metadata);
//
// The header comes from a service, which may send anything: what is not the
// grammar is refused with an error naming where it stops, and nothing in it
// is ever quoted back (it may hold anything).
#ifndef BRAVEBOT_SUPERVISOR_AUTH_AUTHORIZATION_CHALLENGE_H_
#define BRAVEBOT_SUPERVISOR_AUTH_AUTHORIZATION_CHALLENGE_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"

namespace bravebot {

// One challenge: a scheme, then either one token68 or auth-params.
struct AuthChallenge {
  std::string scheme;  // as written; schemes compare case-insensitively
  std::optional<std::string> token68;
  // Names lowercased (they compare case-insensitively), values unquoted, in
  // their order; a name appears once at most.
  std::vector<std::pair<std::string, std::string>> parameters;

  const std::string* Parameter(std::string_view lowercase_name) const;
};

// Every challenge of a WWW-Authenticate value, in order. A response that
// sends the header on several lines is read as their values joined by ", "
// (RFC 9110 section 5.3). kRefused, naming the character where reading
// stopped, for anything else: an unclosed quote, a parameter given twice, a
// control character, an empty value not in quotes.
Result<std::vector<AuthChallenge>> ParseAuthChallenges(std::string_view value);

// What a Bearer challenge says, each absent where the challenge leaves it out.
struct BearerChallenge {
  std::optional<std::string> resource_metadata;  // RFC 9728 section 5.1
  std::optional<std::string> scope;              // space-separated
  std::optional<std::string> error;              // "invalid_token", "insufficient_scope"
  std::optional<std::string> error_description;
};

// The first Bearer challenge of `value` (the scheme in any case), or nothing
// where it has none; kRefused where `value` cannot be read.
Result<std::optional<BearerChallenge>> ReadBearerChallenge(std::string_view value);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_AUTH_AUTHORIZATION_CHALLENGE_H_
