// The word a mistyped one was most likely meant to be: "lst" is "list".
#ifndef BRAVEBOT_CLI_CLOSEST_WORD_H_
#define BRAVEBOT_CLI_CLOSEST_WORD_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bravebot {

// The candidate fewest single-character edits (insert, delete, replace, or
// swap two neighbours) away from `typed`, where that is at most two and
// fewer than the word's own length; the first such candidate on a tie.
// Nothing where none is that close, so a word unlike every candidate is not
// answered with a guess.
std::optional<std::string> ClosestWord(std::string_view typed,
                                       const std::vector<std::string>& candidates);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_CLOSEST_WORD_H_
