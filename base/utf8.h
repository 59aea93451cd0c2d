// Reading bytes as UTF-8 text, which a JSON file can hold.
#ifndef BRAVEBOT_BASE_UTF8_H_
#define BRAVEBOT_BASE_UTF8_H_

#include <cstddef>
#include <string_view>

namespace bravebot {

// True for well-formed UTF-8: no stray continuation byte, no overlong form, no
// surrogate, nothing above U+10FFFF.
bool IsValidUtf8(std::string_view text);

// The length of the well-formed UTF-8 sequence starting text[at], and the
// code point it encodes; 0 when the byte there does not start one.
std::size_t DecodeUtf8(std::string_view text, std::size_t at, char32_t& code_point);

}  // namespace bravebot

#endif  // BRAVEBOT_BASE_UTF8_H_
