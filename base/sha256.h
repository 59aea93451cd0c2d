// SHA-256 through OpenSSL's EVP interface, as lowercase hex.
#ifndef BRAVEBOT_BASE_SHA256_H_
#define BRAVEBOT_BASE_SHA256_H_

#include <string>
#include <string_view>

namespace bravebot {

// The 64 hex digits of SHA-256 over `bytes`.
std::string Sha256Hex(std::string_view bytes);

}  // namespace bravebot

#endif  // BRAVEBOT_BASE_SHA256_H_
