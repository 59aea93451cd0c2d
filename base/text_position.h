// Where a byte lies in a text, as a person finds it in an editor: the line
// and the column, both counted from 1 (columns in bytes). Every file that
// does not parse is reported this way, never by quoting it.
#ifndef BRAVEBOT_BASE_TEXT_POSITION_H_
#define BRAVEBOT_BASE_TEXT_POSITION_H_

#include <cstddef>
#include <string_view>
#include <utility>

namespace bravebot {

// Line and column of byte `offset` in `text` (an offset past the end is the
// end).
std::pair<size_t, size_t> LineAndColumn(std::string_view text, size_t offset);

}  // namespace bravebot

#endif  // BRAVEBOT_BASE_TEXT_POSITION_H_
