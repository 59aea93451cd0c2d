// An agent for the tests of `bravebot-mcp gateway`: the TypeScript SDK's MCP
// client (integration/gateway/agent.mjs) run by Node.js on a JSON scenario,
// and the MCP inspector's command-line mode. Both come from the npm registry
// (scripts/install-peers.sh puts them in .peers/).
//
//   Json scenario = AgentScenario({OurProgram("bravebot-mcp"), "gateway"}, env, checkout);
//   scenario["capabilities"] = {{"elicitation", true}};
//   scenario["elicitations"] = {{{"action", "accept"}, {"answer", "1"}}};
//   scenario["steps"] = {{{"do", "listTools"}}};
//   Json transcript = RunAgent(temporary, scenario);
//   EXPECT_THAT(ToolNames(transcript["steps"][0]), Contains("everything__echo"));
#ifndef BRAVEBOT_INTEGRATION_GATEWAY_CLIENT_H_
#define BRAVEBOT_INTEGRATION_GATEWAY_CLIENT_H_

#include <chrono>
#include <string>
#include <vector>

#include "integration/run_command.h"
#include "integration/session_client.h"

namespace bravebot::testing {

// A scenario that starts `argv` as a stdio server with exactly `environment`
// (NAME=value words) in `cwd`, and declares no capability and runs no step.
Json AgentScenario(const std::vector<std::string>& argv,
                   const std::vector<std::string>& environment, const std::string& cwd);

// Runs the agent on `scenario` in `directory` (where it writes its script and
// the scenario), and gives its transcript (see agent.mjs). Where it could not
// run, ended without one or outlived `limit`, a transcript whose `fatal` says
// why, with what it wrote.
Json RunAgent(const std::string& directory, const Json& scenario,
              std::chrono::seconds limit = std::chrono::seconds(180));

// What the transcript's steps of kind `step` gave, in order.
std::vector<Json> StepsOf(const Json& transcript, const std::string& step);
// The tool names of a listTools step.
std::vector<std::string> ToolNames(const Json& list_step);
// The texts of a callTool step's result, joined by newlines; an error's
// message where it failed as a JSON-RPC request.
std::string CallText(const Json& call_step);

// Whether the inspector is installed in the peers folder.
bool InspectorInstalled();
// `npx --no-install @modelcontextprotocol/inspector --cli ARGV... METHOD...`
// from the inspector's folder, with exactly `environment`, which it passes on
// to the server it starts: `method` such as {"--method", "tools/list"}.
CommandOutput RunInspector(const std::vector<std::string>& argv,
                           const std::vector<std::string>& environment,
                           const std::vector<std::string>& method);

}  // namespace bravebot::testing

#endif  // BRAVEBOT_INTEGRATION_GATEWAY_CLIENT_H_
