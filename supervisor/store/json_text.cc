#include "supervisor/store/json_text.h"

#include "base/json_depth.h"
#include "base/text_position.h"

namespace bravebot {

std::optional<nlohmann::json> ParseJsonText(std::string_view text, std::string& problem) {
  if (NestsDeeperThan(text, kMaxJsonDepth)) {
    problem = "is nested deeper than " + std::to_string(kMaxJsonDepth) +
              " levels, which no file of bravebot-mcp needs";
    return std::nullopt;
  }
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& error) {
    // error.byte is one past the character that stopped the parser.
    auto [line, column] = LineAndColumn(text, error.byte == 0 ? 0 : error.byte - 1);
    problem = "is not JSON: the parser stopped at line " + std::to_string(line) + ", column " +
              std::to_string(column);
  } catch (const nlohmann::json::exception&) {
    // A number too large for any type, for one: JSON in form, but not data.
    problem = "holds a value no JSON reader can hold (a number out of range)";
  }
  return std::nullopt;
}

}  // namespace bravebot
