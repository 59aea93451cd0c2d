// The start of an MCP exchange, without I/O: initialize, its answer read,
// notifications/initialized, then tools/list page after page. The supervisor
// drives it from its loop; each step gives the lines to write next.
//
//   McpStartup startup(connection, kStartupTag);
//   Write(startup.Begin());
//   ... for each kAnswer with tag kStartupTag:
//   McpStartup::Step step = startup.Take(answer);
//   for (auto& line : step.lines) Write(line);
//   if (step.fault) Fail(*step.fault);
//   else if (step.done) Ready(startup.hello(), startup.tools());
#ifndef BRAVEBOT_SUPERVISOR_MCP_MCP_STARTUP_H_
#define BRAVEBOT_SUPERVISOR_MCP_MCP_STARTUP_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "supervisor/mcp/mcp_answers.h"
#include "supervisor/mcp/mcp_connection.h"

namespace bravebot {

class McpStartup {
 public:
  struct Step {
    std::vector<std::string> lines;  // to write, in order
    bool done = false;               // the whole tool list is read
    std::optional<McpFault> fault;   // the start failed
  };

  // Requests go through `connection` under `tag`; initialize offers the
  // client's `capabilities`.
  McpStartup(McpConnection& connection, std::uint64_t tag,
             nlohmann::ordered_json capabilities = nlohmann::ordered_json::object())
      : connection_(connection), tag_(tag), capabilities_(std::move(capabilities)) {}

  // The initialize request.
  std::string Begin();
  // Takes the answer to the request under way.
  Step Take(McpIncoming answer);

  // The method of the request under way: "initialize" or "tools/list".
  const std::string& awaiting() const { return awaiting_; }
  const InitializeResult& hello() const { return hello_; }
  std::vector<nlohmann::ordered_json>& tools() { return pages_.tools(); }

 private:
  McpConnection& connection_;
  std::uint64_t tag_;
  nlohmann::ordered_json capabilities_;
  std::string awaiting_ = "initialize";
  InitializeResult hello_;
  ToolListPages pages_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_MCP_MCP_STARTUP_H_
