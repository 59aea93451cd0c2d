// Reading a JSON file's text, and saying why it cannot be read in words that
// name the place and never quote the text, which may hold keys; and writing a
// document back without losing what it held.
#ifndef BRAVEBOT_SUPERVISOR_STORE_JSON_TEXT_H_
#define BRAVEBOT_SUPERVISOR_STORE_JSON_TEXT_H_

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "base/result.h"

namespace bravebot {

// The numbers of a document that are not plain integers of 64 bits (one past
// them, 1.50, 1e3), as written, by their JSON pointer: nlohmann::json holds
// them as doubles and would write them back changed.
using NumbersAsWritten = std::map<std::string, std::string>;

// The document, or kCorrupt with what is wrong, in words that follow the
// file's path: "is not JSON: the parser stopped at line 3, column 5", that it
// holds a number out of range, that it gives a key twice in one object
// (nlohmann::json would keep the last, other readers the first), or that it
// nests deeper than kMaxJsonDepth or holds an object wider than
// kMaxJsonObjectMembers (base/bounded_json.h), each bound kept as it parses,
// in the same pass. With `numbers`, fills
// it for DumpKeepingNumbers.
Result<nlohmann::json> ParseJsonText(std::string_view text, NumbersAsWritten* numbers = nullptr);

// `document` as dump(2) writes it, with each number of `numbers` that is
// still where it was spelled as it was written. Throws what dump throws.
std::string DumpKeepingNumbers(const nlohmann::json& document, const NumbersAsWritten& numbers);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_STORE_JSON_TEXT_H_
