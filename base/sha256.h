// SHA-256 as lowercase hex, through Nettle: a library that needs no
// initialisation and no configuration file, so a process that hashes one
// declaration pays for one hash (docs/performance.md, "mcp-run as a whole process").
#ifndef BRAVEBOT_BASE_SHA256_H_
#define BRAVEBOT_BASE_SHA256_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace bravebot {

// The 64 hex digits of SHA-256 over `bytes`.
std::string Sha256Hex(std::string_view bytes);

// The 32 bytes of SHA-256 over `bytes` (a PKCE challenge is their base64url).
std::array<std::uint8_t, 32> Sha256Bytes(std::string_view bytes);

}  // namespace bravebot

#endif  // BRAVEBOT_BASE_SHA256_H_
