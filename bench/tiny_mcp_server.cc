// The smallest MCP server: answers initialize and tools/list at once and
// exits when its input ends. Starting it measures what starting costs, with
// nothing of a real server's own start-up in the way.
#include <iostream>
#include <string>

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    // The benchmark's client sends ids 1 and 2; anything else is a notification.
    if (line.find("\"initialize\"") != std::string::npos) {
      std::cout << R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25",)"
                << R"("capabilities":{"tools":{}},"serverInfo":{"name":"tiny","version":"1"}}})"
                << std::endl;
    } else if (line.find("\"tools/list\"") != std::string::npos) {
      std::cout << R"({"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"noop",)"
                << R"("inputSchema":{"type":"object"}}]}})" << std::endl;
    }
  }
  return 0;
}
