// The smallest MCP server: answers initialize and tools/list at once, answers
// every tools/call with a short text under the call's own id, and exits when
// its input ends. Starting it measures what starting costs, and calling it
// what relaying costs, with nothing of a real server's own work in the way.
//   tiny_mcp_server [WORD [MS]]
// WORD is ignored (it makes declarations differ); MS, when given, is how long
// it waits before it reads anything, as a server that loads or fetches does.
#include <chrono>
#include <iostream>
#include <string>
#include <thread>

int main(int argc, char** argv) {
  if (argc > 2) std::this_thread::sleep_for(std::chrono::milliseconds(std::stoi(argv[2])));
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
    } else if (line.find("\"tools/call\"") != std::string::npos) {
      // The id is a number, as every client here sends it: the digits after "id":.
      const std::size_t at = line.find("\"id\":");
      const std::size_t end = line.find_first_not_of("0123456789", at + 5);
      std::cout << R"({"jsonrpc":"2.0","id":)" << line.substr(at + 5, end - at - 5)
                << R"(,"result":{"content":[{"type":"text","text":"ok"}]}})" << std::endl;
    }
  }
  return 0;
}
