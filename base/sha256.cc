#include "base/sha256.h"

#include <nettle/sha2.h>

#include <array>
#include <cstdint>

namespace bravebot {

std::array<std::uint8_t, 32> Sha256Bytes(std::string_view bytes) {
  static_assert(SHA256_DIGEST_SIZE == 32);
  sha256_ctx context;
  sha256_init(&context);
  sha256_update(&context, bytes.size(), reinterpret_cast<const uint8_t*>(bytes.data()));
  std::array<std::uint8_t, 32> digest;
  sha256_digest(&context, digest.size(), digest.data());
  return digest;
}

std::string Sha256Hex(std::string_view bytes) {
  const std::array<std::uint8_t, 32> digest = Sha256Bytes(bytes);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(digest.size() * 2);
  for (uint8_t byte : digest) {
    hex += kHex[byte >> 4];
    hex += kHex[byte & 0xf];
  }
  return hex;
}

}  // namespace bravebot
