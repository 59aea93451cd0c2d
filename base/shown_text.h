// Words from a file or a server, made safe to show a person: nothing in them
// can move a terminal's cursor or forge a line of ours.
#ifndef BRAVEBOT_BASE_SHOWN_TEXT_H_
#define BRAVEBOT_BASE_SHOWN_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace bravebot {

// Bytes a server wrote, made safe to show a person: control characters (C0,
// DEL, C1) and bytes that are not UTF-8 become escapes (\t, \r, \n, \xNN,
// \u009b), so the text cannot move a terminal's cursor. Everything else is
// kept, backslashes included.
std::string EscapeControlCharacters(std::string_view text);

// `line` for an error message: at most `max_characters` characters of it,
// escaped, in double quotes, with "..." after the quote when it was cut.
std::string QuoteLine(std::string_view line, std::size_t max_characters = 200);

}  // namespace bravebot

#endif  // BRAVEBOT_BASE_SHOWN_TEXT_H_
