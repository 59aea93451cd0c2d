// An MCP server whose answer to one method nests 100,000 levels deep:
//   deep_answers tools/list    its tool's schema
//   deep_answers tools/call    every call's result
#include <string>

#include "integration/fake_servers/fake_server.h"

using fake_server::json;

int main(int argc, char** argv) {
  const std::string deep_method = argc > 1 ? argv[1] : "tools/list";
  const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
  const std::string schema = deep_method == "tools/list"
                                 ? R"({"type":"object","default":)" + deep + "}"
                                 : R"({"type":"object"})";
  for (json message = fake_server::ReadMessage(); !message.is_null();
       message = fake_server::ReadMessage()) {
    if (fake_server::IsRequest(message, "initialize")) {
      fake_server::AnswerInitialize(message);
    } else if (fake_server::IsRequest(message, "tools/list")) {
      fake_server::WriteResult(message["id"],
                               R"({"tools":[{"name":"deep","inputSchema":)" + schema + "}]}");
    } else if (fake_server::IsRequest(message, "tools/call")) {
      fake_server::WriteResult(message["id"], R"({"content":)" + deep + "}");
    }
  }
  return 0;
}
