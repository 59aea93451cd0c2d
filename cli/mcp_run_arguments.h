// The words mcp-run takes:
//
//   mcp-run ALIAS [--call TOOL JSON | --stdio] [--timeout SECONDS]
//   mcp-run [--call TOOL JSON | --stdio] [--timeout SECONDS] ADD-WORDS... -- PROGRAM [ARGS...]
//
// ADD-WORDS are the words `bravebot-mcp add` takes (an alias, -e, --dir); the
// server they declare is run without being declared. --stdio always means the
// bridge here, never add's transport.
#ifndef BRAVEBOT_CLI_MCP_RUN_ARGUMENTS_H_
#define BRAVEBOT_CLI_MCP_RUN_ARGUMENTS_H_

#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "cli/add_arguments.h"

namespace bravebot {

struct McpRunArguments {
  bool help = false;
  std::string alias;                     // a declared server, or
  std::optional<AddArguments> ad_hoc;    // one given on the command line
  bool bridge = false;                   // --stdio
  std::optional<std::string> call_tool;  // --call TOOL JSON
  std::string call_arguments = "{}";
  int timeout_seconds = 30;
};

Result<McpRunArguments> ParseMcpRunArguments(const std::vector<std::string>& words);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_MCP_RUN_ARGUMENTS_H_
