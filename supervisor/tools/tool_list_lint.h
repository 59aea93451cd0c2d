// What a plain reading of a server's raw tool list finds, before anyone
// believes it: characters a reader cannot see, terminal escape sequences,
// words addressed to the model rather than describing a tool, and names that
// pass for another server's tool or the session's own. It is a reading, not a
// verdict: a session draws it beside its own check's, and a list with no
// finding is not thereby safe.
//
//   ToolListLintContext context;
//   context.builtin_tools = {"Bash", "Read"};
//   context.other_servers["docs"] = {"search"};
//   for (const ToolListFinding& finding : LintToolList("weather", tools, context)) ...
#ifndef BRAVEBOT_SUPERVISOR_TOOLS_TOOL_LIST_LINT_H_
#define BRAVEBOT_SUPERVISOR_TOOLS_TOOL_LIST_LINT_H_

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace bravebot {

struct ToolListLintContext {
  // The session's own tools (session/open's builtinTools).
  std::vector<std::string> builtin_tools;
  // The tool names of the other servers of the session that are known now,
  // by alias; an alias with no names is still a server whose name a
  // description may borrow.
  std::map<std::string, std::vector<std::string>> other_servers;
};

struct ToolListFinding {
  std::string tool;   // the tool's name, escaped; "" for the list as a whole
  std::string where;  // "name", "description", "inputSchema.properties.city.description", ...
  // "invisible", "escape", "addressed-to-model" or "borrowed-name".
  std::string kind;
  std::string text;  // one sentence in our words, never the server's beyond a name

  nlohmann::ordered_json ToJson() const;
};

std::vector<ToolListFinding> LintToolList(const std::string& alias,
                                          const std::vector<nlohmann::ordered_json>& tools,
                                          const ToolListLintContext& context);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_TOOLS_TOOL_LIST_LINT_H_
