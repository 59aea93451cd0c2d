// Reading a JSON file's text, and saying why it cannot be read in words that
// name the place and never quote the text, which may hold keys.
#ifndef BRAVEBOT_SUPERVISOR_STORE_JSON_TEXT_H_
#define BRAVEBOT_SUPERVISOR_STORE_JSON_TEXT_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace bravebot {

// The document, or nothing with `problem` set: "is not JSON: the parser
// stopped at line 3, column 5", that it holds a number out of range, or that
// it nests deeper than kMaxJsonDepth (base/json_depth.h).
std::optional<nlohmann::json> ParseJsonText(std::string_view text, std::string& problem);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_STORE_JSON_TEXT_H_
