// Words from a file or a server, made safe to show a person: nothing in them
// can move a terminal's cursor or forge a line of ours.
#ifndef BRAVEBOT_BASE_SHOWN_TEXT_H_
#define BRAVEBOT_BASE_SHOWN_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace bravebot {

// Characters a terminal draws as nothing, or that change how what follows
// is drawn: zero-width characters (U+200B..U+200D, U+2060..U+2064, U+FEFF,
// U+180E, U+034F), the soft hyphen U+00AD, the bidirectional controls
// (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069), the invisible
// operators, the variation selectors (U+FE00..U+FE0F, U+E0100..U+E01EF) and
// the tag characters (U+E0000..U+E007F), which can spell words no reader
// sees.
bool IsInvisibleCharacter(char32_t code_point);

// Bytes a server wrote, made safe to show a person: control characters (C0,
// DEL, C1) and bytes that are not UTF-8 become escapes (\t, \r, \n, \xNN,
// \u009b), so the text cannot move a terminal's cursor; invisible characters
// become \u200b or \U000e0041, so what a reader sees is all there is.
// Everything else is kept, backslashes included.
std::string EscapeControlCharacters(std::string_view text);

// `line` for an error message: at most `max_characters` characters of it,
// escaped, in double quotes, with "..." after the quote when it was cut.
std::string QuoteLine(std::string_view line, std::size_t max_characters = 200);

}  // namespace bravebot

#endif  // BRAVEBOT_BASE_SHOWN_TEXT_H_
