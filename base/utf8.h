// Whether bytes are UTF-8 text, which a JSON file can hold.
#ifndef BRAVEBOT_BASE_UTF8_H_
#define BRAVEBOT_BASE_UTF8_H_

#include <string_view>

namespace bravebot {

// True for well-formed UTF-8: no stray continuation byte, no overlong form, no
// surrogate, nothing above U+10FFFF.
bool IsValidUtf8(std::string_view text);

}  // namespace bravebot

#endif  // BRAVEBOT_BASE_UTF8_H_
