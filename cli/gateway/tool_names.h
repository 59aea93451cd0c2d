// The names the gateway offers a server's tools under. Clients take a tool
// name of [A-Za-z0-9_-] and at most 64 characters, counting the prefix they
// add themselves (Claude Code's mcp__bravebot__ is 15), and refuse or drop
// a server whose list breaks it. So a tool is ALIAS__TOOL with every other
// character made `_`, and one too long, or clashing with another, is cut and
// given a hash of its own full name: the same name in every session, for the
// same server and tool.
#ifndef BRAVEBOT_CLI_GATEWAY_TOOL_NAMES_H_
#define BRAVEBOT_CLI_GATEWAY_TOOL_NAMES_H_

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace bravebot {

// 64, less the 15 characters of mcp__bravebot__.
inline constexpr std::size_t kLongestGatewayToolName = 49;

struct ServerTool {
  std::string alias;
  std::string tool;
  bool operator<(const ServerTool& other) const {
    return std::pair(alias, tool) < std::pair(other.alias, other.tool);
  }
  bool operator==(const ServerTool& other) const = default;
};

struct GatewayToolName {
  std::string name;
  bool shortened = false;  // not ALIAS__TOOL as it stands: the description says so
};

// The name each of `tools` is offered under, none the same, none among
// `taken` (the gateway's own tools), and none that `given_before` gives
// another tool: a client may still hold a name it was given earlier in the
// session, and a call to it must never reach a tool it did not mean.
std::map<ServerTool, GatewayToolName> GatewayToolNames(
    const std::vector<ServerTool>& tools, const std::vector<std::string>& taken,
    const std::map<std::string, ServerTool>& given_before = {});

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_GATEWAY_TOOL_NAMES_H_
