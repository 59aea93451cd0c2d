#include "supervisor/auth/pkce.h"

#include <sys/random.h>

#include <array>
#include <cerrno>
#include <cstdint>

#include "base/base64.h"
#include "base/sha256.h"

namespace bravebot {
namespace {

// 32 bytes: 256 bits, as RFC 7636 section 7.1 recommends, which base64url
// writes as 43 characters, the least a verifier may have.
constexpr size_t kRandomBytes = 32;

// The kernel's random bytes. Why getrandom(2) and not a library's generator:
// it is the source such a generator seeds itself from, and the programs link
// no cryptographic library but Nettle's hash (base/sha256.h says why).
Result<std::string> RandomBytes(size_t count) {
  std::string bytes(count, '\0');
  size_t filled = 0;
  while (filled < count) {
    ssize_t got = ::getrandom(bytes.data() + filled, count - filled, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      return Error::FromErrno("read random bytes for signing in");
    }
    filled += static_cast<size_t>(got);
  }
  return bytes;
}

}  // namespace

std::string PkceChallenge(std::string_view verifier) {
  const std::array<std::uint8_t, 32> digest = Sha256Bytes(verifier);
  return Base64Url(std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()));
}

Result<PkcePair> NewPkcePair() {
  BRAVEBOT_ASSIGN_OR_RETURN(std::string random, RandomBytes(kRandomBytes));
  PkcePair pair;
  pair.verifier = Base64Url(random);
  pair.challenge = PkceChallenge(pair.verifier);
  return pair;
}

Result<std::string> NewState() {
  BRAVEBOT_ASSIGN_OR_RETURN(std::string random, RandomBytes(kRandomBytes));
  return Base64Url(random);
}

bool IsPkceVerifier(std::string_view verifier) {
  if (verifier.size() < 43 || verifier.size() > 128) return false;
  for (char c : verifier) {
    const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                            (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
    if (!unreserved) return false;
  }
  return true;
}

}  // namespace bravebot
