// A server's words on their way to the client of the gateway, which draws
// them for a person: what can be escaped is, and what cannot be (the values
// an answer carries back to the server as written) is checked instead.
#ifndef BRAVEBOT_CLI_GATEWAY_SHOWN_WORDS_H_
#define BRAVEBOT_CLI_GATEWAY_SHOWN_WORDS_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace bravebot {

using Json = nlohmann::ordered_json;

// Escapes, in a form's schema, the words a client draws and no answer
// carries back (titles, descriptions, the names of choices), as every
// server's words shown to a person are.
void EscapeShownWords(Json& schema);

// What, in an elicitation's params, a client draws and the person's answer
// carries back to the server as written, so it cannot be escaped: a form's
// field names and the strings of its schema other than its shown words
// (choices, defaults), a url-mode url. The first of them that holds a
// character escaping would change, named for an error ("the field name
// ..."); nullopt where none does.
std::optional<std::string> UnescapableWord(const Json& params);

// `data` (a log's, any JSON) with every string in it, member names
// included, escaped: a client draws it whole.
Json EscapedData(const Json& data);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_GATEWAY_SHOWN_WORDS_H_
