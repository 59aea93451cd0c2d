// The secrets of one sign-in (RFC 7636): a PKCE code verifier, its S256
// challenge, and a `state` the redirect back must carry. The verifier stays
// here until the token request; the challenge travels in the authorization
// URL, so whoever intercepts the code cannot redeem it without the verifier.
//
//   BRAVEBOT_ASSIGN_OR_RETURN(PkcePair pkce, NewPkcePair());
//   url += "&code_challenge=" + pkce.challenge + "&code_challenge_method=S256";
//   ... token request: "code_verifier=" + pkce.verifier
#ifndef BRAVEBOT_SUPERVISOR_AUTH_PKCE_H_
#define BRAVEBOT_SUPERVISOR_AUTH_PKCE_H_

#include <string>
#include <string_view>

#include "base/result.h"

namespace bravebot {

struct PkcePair {
  std::string verifier;   // 43 characters of base64url: 32 random bytes
  std::string challenge;  // base64url, no padding, of SHA-256 over the verifier
};

// The S256 challenge of `verifier`.
std::string PkceChallenge(std::string_view verifier);

// A fresh verifier and its challenge; kSystem only where the kernel gives no
// random bytes.
Result<PkcePair> NewPkcePair();

// A fresh `state`: 32 random bytes in base64url, unguessable, so a redirect
// to the loopback that carries another is refused.
Result<std::string> NewState();

// Whether `verifier` is one RFC 7636 section 4.1 allows: 43 to 128 of
// [A-Z a-z 0-9 - . _ ~].
bool IsPkceVerifier(std::string_view verifier);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_AUTH_PKCE_H_
