// Base64 (RFC 4648), through Nettle, the library base/sha256.h hashes with:
// standard, as HTTP's Basic authentication writes a client's id and secret,
// and url-safe without padding, as PKCE writes its verifier and challenge.
#ifndef BRAVEBOT_BASE_BASE64_H_
#define BRAVEBOT_BASE_BASE64_H_

#include <string>
#include <string_view>

namespace bravebot {

// `bytes` in base64 (RFC 4648 section 4), padded with '='.
std::string Base64(std::string_view bytes);

// `bytes` in base64url (RFC 4648 section 5) without padding.
std::string Base64Url(std::string_view bytes);

}  // namespace bravebot

#endif  // BRAVEBOT_BASE_BASE64_H_
