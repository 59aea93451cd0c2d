// mcp-run, as a function of its words, for its main() and for tests.
#ifndef BRAVEBOT_CLI_MCP_RUN_H_
#define BRAVEBOT_CLI_MCP_RUN_H_

#include <string>
#include <vector>

#include "cli/command.h"

namespace bravebot {

int RunMcpRun(const std::vector<std::string>& words, CommandContext& context);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_MCP_RUN_H_
