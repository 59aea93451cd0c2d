// The permission rules of the Mcp family, read from the `permissions` of the
// three settings files: a rule decides a call before it is put to anyone.
//
//   { "permissions": { "deny": ["Mcp(weather:get_alerts)"], "allow": ["Mcp(docs)"] } }
//
// Mcp(weather) and Mcp(weather:*) cover every tool of weather, and
// Mcp(weather:get_alerts) that one tool; a name matches whole, so
// Mcp(weather) does not cover weather2. A rule names a server and a tool,
// never the arguments. Rules of other families (Bash(...), WebFetch(...))
// are the session's, and are passed over here.
//
//   McpRules rules;
//   rules.AddRulesOf(document, ".bravebot/settings.json");
//   switch (rules.Decide("weather", "get_alerts")) { ... }
#ifndef BRAVEBOT_SUPERVISOR_TOOLS_MCP_RULES_H_
#define BRAVEBOT_SUPERVISOR_TOOLS_MCP_RULES_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace bravebot {

struct McpRule {
  std::string server;  // an alias
  std::string tool;    // one tool's name; "" for every tool of the server

  bool Covers(std::string_view server_alias, std::string_view tool_name) const;
  bool operator==(const McpRule&) const = default;
};

// A rule's text read: nothing for a rule of another family; kUsage, saying
// why, for one of the Mcp family that names no server and tool as above.
Result<std::optional<McpRule>> ParseMcpRule(std::string_view text);

enum class RuleVerdict { kNone, kDeny, kAsk, kAllow };

// Which of a settings file's rules are read: all, or those that narrow.
enum class RulesRead { kAll, kNarrowingOnly };

class McpRules {
 public:
  // Adds the Mcp rules of one settings file's parsed document. A
  // `permissions` that is not an object, a list that is not a list of
  // strings, or an Mcp rule that cannot be read decides nothing, and adds a
  // note naming the file and where (never quoting it) to `notes()`.
  //
  // With RulesRead::kNarrowingOnly, for a file a server may write, only its
  // deny and ask rules are read: its allow rules are read as nothing.
  void AddRulesOf(const nlohmann::json& document, const std::string& shown_path,
                  RulesRead read = RulesRead::kAll);

  // Deny over ask over allow, whichever file each came from.
  RuleVerdict Decide(std::string_view server, std::string_view tool) const;

  // Of the rules of one list that cannot be read, the first five are named
  // one by one and the rest counted in one note: each note is a line the
  // session prints as it opens.
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  std::vector<McpRule> deny_;
  std::vector<McpRule> ask_;
  std::vector<McpRule> allow_;
  std::vector<std::string> notes_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_TOOLS_MCP_RULES_H_
