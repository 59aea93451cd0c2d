// An MCP server whose tools/list does not end: every page holds one tool whose
// description is 15 MiB, just under the cap of one line, and names a next page.
// It gives up after 64 pages (960 MiB), so a client without a cap on the whole
// list fails its test rather than the machine.
#include <string>

#include "integration/fake_servers/fake_server.h"

using fake_server::json;

int main() {
  const std::string description(15 << 20, 'x');
  int page = 0;
  for (json message = fake_server::ReadMessage(); !message.is_null();
       message = fake_server::ReadMessage()) {
    if (fake_server::IsRequest(message, "initialize")) {
      fake_server::AnswerInitialize(message);
    } else if (fake_server::IsRequest(message, "tools/list")) {
      if (++page > 64) return 1;
      fake_server::WriteResult(message["id"], R"({"tools":[{"name":"tool-)" + std::to_string(page) +
                                                  R"(","description":")" + description +
                                                  R"("}],"nextCursor":"page-)" +
                                                  std::to_string(page + 1) + "\"}");
    }
  }
  return 0;
}
