#include "base/shown_text.h"

#include <cstdio>

#include "base/utf8.h"

namespace bravebot {

bool IsInvisibleCharacter(char32_t c) {
  return c == 0x00ad || c == 0x034f || c == 0x061c || c == 0x180e || (c >= 0x200b && c <= 0x200f) ||
         (c >= 0x202a && c <= 0x202e) || (c >= 0x2060 && c <= 0x2069) ||
         (c >= 0xfe00 && c <= 0xfe0f) || c == 0xfeff || (c >= 0xe0000 && c <= 0xe007f) ||
         (c >= 0xe0100 && c <= 0xe01ef);
}

std::string EscapeControlCharacters(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    char32_t code_point = 0;
    std::size_t length = DecodeUtf8(text, at, code_point);
    char escape[12];
    if (length == 0) {
      std::snprintf(escape, sizeof(escape), "\\x%02x", static_cast<unsigned char>(text[at]));
      out += escape;
      ++at;
      continue;
    }
    if (code_point == '\t') {
      out += "\\t";
    } else if (code_point == '\r') {
      out += "\\r";
    } else if (code_point == '\n') {
      out += "\\n";
    } else if (code_point < 0x20 || code_point == 0x7f) {
      std::snprintf(escape, sizeof(escape), "\\x%02x", static_cast<unsigned>(code_point));
      out += escape;
    } else if (code_point >= 0x80 && code_point <= 0x9f) {
      // C1 controls: U+009B is a CSI that some terminals obey in UTF-8.
      std::snprintf(escape, sizeof(escape), "\\u%04x", static_cast<unsigned>(code_point));
      out += escape;
    } else if (IsInvisibleCharacter(code_point)) {
      std::snprintf(escape, sizeof(escape), code_point > 0xffff ? "\\U%08x" : "\\u%04x",
                    static_cast<unsigned>(code_point));
      out += escape;
    } else {
      out.append(text.substr(at, length));
    }
    at += length;
  }
  return out;
}

std::string QuoteLine(std::string_view line, std::size_t max_characters) {
  std::size_t at = 0;
  std::size_t characters = 0;
  while (at < line.size() && characters < max_characters) {
    char32_t ignored;
    std::size_t length = DecodeUtf8(line, at, ignored);
    at += length == 0 ? 1 : length;
    ++characters;
  }
  // Appended rather than "\"" + a temporary, which GCC 12 at -O3 takes for an
  // overlapping copy (a false -Wrestrict, GCC bug 105329).
  std::string quoted = "\"";
  quoted += EscapeControlCharacters(line.substr(0, at));
  quoted += "\"";
  if (at < line.size()) quoted += "...";
  return quoted;
}

}  // namespace bravebot
