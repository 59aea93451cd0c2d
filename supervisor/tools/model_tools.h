// A server's tool list as the model is handed it, and the digest that pins
// the list a person said yes to.
//
//   std::string digest = ToolListDigest(tools);        // every page, in order
//   nlohmann::ordered_json offered = ModelTools("weather", tools);
#ifndef BRAVEBOT_SUPERVISOR_TOOLS_MODEL_TOOLS_H_
#define BRAVEBOT_SUPERVISOR_TOOLS_MODEL_TOOLS_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace bravebot {

// SHA-256 (64 hex digits) of the list as the server sent it: every tool of
// every page, in order, each with its members in the server's order,
// serialized compactly. Whitespace between JSON tokens is not part of it;
// every byte of a name, a description or a schema is.
std::string ToolListDigest(const std::vector<nlohmann::ordered_json>& tools);

// The name the model calls a tool by: mcp__ALIAS__TOOL. No built-in tool's
// name starts with mcp__, so none can be shadowed.
std::string ModelToolName(const std::string& alias, const std::string& tool);

// The sentence in front of the server's words in every tool's description.
std::string ModelToolPreface(const std::string& alias);

// Each tool as the model sees it: `name` (ModelToolName), `description` (the
// preface, a blank line, then the server's description with control and
// invisible characters escaped, row by row, exactly as the offer draws it),
// and `inputSchema`: the server's schema without the words the offer does not
// draw (`description`, `title`, `examples`, `default`, `$comment` and any
// keyword that is not about the shape of a value), so the model reads no
// sentence of the server's that the person did not read.
nlohmann::ordered_json ModelTools(const std::string& alias,
                                  const std::vector<nlohmann::ordered_json>& tools);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_TOOLS_MODEL_TOOLS_H_
