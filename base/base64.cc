#include "base/base64.h"

#include <nettle/base64.h>

#include <cstdint>

namespace bravebot {
namespace {

std::string Encoded(std::string_view bytes, void (*init)(base64_encode_ctx*)) {
  base64_encode_ctx context;
  init(&context);
  std::string text(BASE64_ENCODE_LENGTH(bytes.size()) + BASE64_ENCODE_FINAL_LENGTH, '\0');
  size_t written = base64_encode_update(&context, text.data(), bytes.size(),
                                        reinterpret_cast<const std::uint8_t*>(bytes.data()));
  written += base64_encode_final(&context, text.data() + written);
  text.resize(written);
  return text;
}

}  // namespace

std::string Base64(std::string_view bytes) { return Encoded(bytes, base64_encode_init); }

std::string Base64Url(std::string_view bytes) {
  std::string text = Encoded(bytes, base64url_encode_init);
  // Nettle pads as the standard alphabet does; PKCE and JWTs write none.
  while (!text.empty() && text.back() == '=') text.pop_back();
  return text;
}

}  // namespace bravebot
