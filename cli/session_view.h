// What `bravebot-mcp session` prints that the supervisor does not word: a
// call line read, a call's result behind the margin, what a plain reading
// of a list found, and the session's Confinement line. Without I/O.
#ifndef BRAVEBOT_CLI_SESSION_VIEW_H_
#define BRAVEBOT_CLI_SESSION_VIEW_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "base/result.h"

namespace bravebot {

// A call as the session's input writes it: ALIAS:TOOL {json arguments}.
struct CallLine {
  std::string alias;
  std::string tool;
  nlohmann::ordered_json arguments = nlohmann::ordered_json::object();
};

// Reads `line`; the arguments may be left out, and are then {}. A mistake
// is kUsage, saying what a call line is.
Result<CallLine> ParseCallLine(std::string_view line);

// A call's result as the person sees it: a line naming the call, then every
// row of what the server returned behind the ┃ margin, escaped, so nothing
// in it reaches the terminal raw. Text is shown whole; an image, audio or a
// resource is named, with its type and size, never drawn.
std::string CallResultText(const std::string& alias, const std::string& tool,
                           const nlohmann::ordered_json& result);

// What a plain reading of a list found (server/start's `lint`), a line each,
// or the line saying it found nothing.
std::string LintText(const std::string& alias, const nlohmann::ordered_json& lint);

// The two rows the session opens with: `  Confinement   kernel-enforced`,
// and what it covers under it.
std::string ConfinementText(const nlohmann::ordered_json& confinement);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_SESSION_VIEW_H_
