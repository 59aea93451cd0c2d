// How a declaration is drawn for a person: the block add and get print, and
// the pieces list uses. A stored value is never drawn, only its name.
//
//     weather   stdio   npx -y @dangahagan/weather-mcp@latest
//               variables: PATH
//               digest: 25edc5e8
#ifndef BRAVEBOT_CLI_DECLARATION_VIEW_H_
#define BRAVEBOT_CLI_DECLARATION_VIEW_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "confine/declaration.h"

namespace bravebot {

// `word` as a shell would need it typed to read it back as one word: bare when
// it is plain, in single quotes when it holds a space or a shell character,
// and as $'...' with escapes when it holds a control character, so that what
// a terminal shows is what the server gets.
std::string DisplayWord(std::string_view word);

// The program and its arguments, or the url.
std::string DisplayCommandLine(const Declaration& declaration);

// "BRAVE_API_KEY_FILE (stored), PATH": every variable name, sorted, a stored
// one marked.
std::string DisplayVariables(const Declaration& declaration);

// "Authorization (stored)": every header name of a service, sorted; never a
// value.
std::string DisplayHeaders(const Declaration& declaration);

// The block: the alias, transport and command line on the first row, then
// `runs` (where the program named through PATH is found, where given),
// variables, headers, the OAuth client's id, "client secret: set" and scopes,
// files it may read, directory, and `digest_text`, each on a row of its own,
// indented under the command line. Rows end with '\n'.
std::string DisplayDeclarationBlock(const Declaration& declaration, const std::string& digest_text,
                                    const std::vector<std::string>& extra_rows = {},
                                    const std::optional<std::string>& runs = std::nullopt);

// The declaration as JSON for scripts: every field but a stored value, which
// is given by name with "stored": true, and a header's value: "headers" lists
// a service's header names, where it has any, and "oauth" its client id,
// scopes and whether a client secret is stored, where it has any of them.
nlohmann::json DeclarationSummaryJson(const Declaration& declaration);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_DECLARATION_VIEW_H_
