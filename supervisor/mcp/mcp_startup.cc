#include "supervisor/mcp/mcp_startup.h"

#include <utility>
#include <variant>

namespace bravebot {

std::string McpStartup::Begin() {
  awaiting_ = "initialize";
  return connection_.Request(tag_, awaiting_, InitializeParams(capabilities_));
}

McpStartup::Step McpStartup::Take(McpIncoming answer) {
  Step step;
  if (answer.fault) {
    step.fault = std::move(answer.fault);
    return step;
  }
  if (awaiting_ == "initialize") {
    McpRead<InitializeResult> hello = ReadInitializeAnswer(answer.result);
    if (auto* fault = std::get_if<McpFault>(&hello)) {
      step.fault = std::move(*fault);
      return step;
    }
    hello_ = std::get<InitializeResult>(std::move(hello));
    step.lines.push_back(McpConnection::Notification("notifications/initialized", nullptr));
    // A server that offers no tools need not answer tools/list: its list is
    // empty, and nothing is asked.
    if (!hello_.capabilities.contains("tools")) {
      step.done = true;
      return step;
    }
    awaiting_ = "tools/list";
    step.lines.push_back(connection_.Request(tag_, awaiting_, pages_.NextParams()));
    return step;
  }
  auto page = pages_.Take(std::move(answer.result), answer.line_bytes);
  if (auto* fault = std::get_if<McpFault>(&page)) {
    step.fault = std::move(*fault);
  } else if (std::holds_alternative<ToolListPages::Done>(page)) {
    step.done = true;
  } else {
    step.lines.push_back(connection_.Request(tag_, awaiting_, pages_.NextParams()));
  }
  return step;
}

}  // namespace bravebot
