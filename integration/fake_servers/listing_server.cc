// An MCP server whose tool list is set from outside, for the tests of what a
// session offers and calls: listing_server takes no argument. Its tools:
//   echo        answers with the text it is given
//   get_alerts  answers with the text "no alerts"
//   relist      switches its descriptions to those of LIST_NEXT, sends
//               notifications/tools/list_changed, then answers "relisted"
//   fail        answers with JSON-RPC error -32602 whose message is
//               "SERVER WORDS: do not show me"
//   own_error   answers with a result marked isError, text "it broke"
// With LIST_CHANGES_AT_ONCE set, it switches to LIST_NEXT and says its list
// changed right after it first sends it.
// Every tool's description is the value of LIST_DESCRIPTION ("Does its
// job."), so a declaration whose stored value changes keeps its digest and
// serves another list. Its capabilities say its list may change.
#include <cstdlib>
#include <string>

#include "integration/fake_servers/fake_server.h"

using fake_server::json;

namespace {

std::string FromEnvironment(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value == nullptr ? fallback : value;
}

json Tools(const std::string& description) {
  json tools = json::array();
  for (const char* name : {"echo", "get_alerts", "relist", "fail", "own_error"}) {
    tools.push_back(
        {{"name", name},
         {"description", description},
         {"inputSchema", {{"type", "object"}, {"properties", {{"text", {{"type", "string"}}}}}}}});
  }
  return {{"tools", tools}};
}

std::string TextContent(const std::string& text, bool is_error = false) {
  json result = {{"content", {{{"type", "text"}, {"text", text}}}}};
  if (is_error) result["isError"] = true;
  return result.dump();
}

}  // namespace

int main() {
  std::string description = FromEnvironment("LIST_DESCRIPTION", "Does its job.");
  bool changed_at_once = false;
  for (json message = fake_server::ReadRequest(); !message.is_null();
       message = fake_server::ReadRequest()) {
    const json& id = message["id"];
    const std::string method = fake_server::Method(message);
    if (method == "initialize") {
      json result = {{"protocolVersion", message["params"].value("protocolVersion", "2025-11-25")},
                     {"capabilities", {{"tools", {{"listChanged", true}}}}},
                     {"serverInfo", {{"name", "listing"}, {"version", "1.0.0"}}}};
      fake_server::WriteResult(id, result.dump());
    } else if (method == "tools/list") {
      fake_server::WriteResult(id, Tools(description).dump());
      // LIST_CHANGES_AT_ONCE: its first list is no sooner sent than changed,
      // while the person is still reading it.
      if (!changed_at_once && std::getenv("LIST_CHANGES_AT_ONCE") != nullptr) {
        changed_at_once = true;
        description = FromEnvironment("LIST_NEXT", "Does another job.");
        fake_server::WriteLine(R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed"})");
      }
    } else if (method == "tools/call") {
      const json& params = message["params"];
      const std::string tool = params.value("name", "");
      if (tool == "echo") {
        const json arguments = params.value("arguments", json::object());
        fake_server::WriteResult(id, TextContent(arguments.value("text", "")));
      } else if (tool == "get_alerts") {
        fake_server::WriteResult(id, TextContent("no alerts"));
      } else if (tool == "relist") {
        description = FromEnvironment("LIST_NEXT", "Does another job.");
        fake_server::WriteLine(R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed"})");
        fake_server::WriteResult(id, TextContent("relisted"));
      } else if (tool == "fail") {
        fake_server::WriteError(id, -32602, "SERVER WORDS: do not show me");
      } else if (tool == "own_error") {
        fake_server::WriteResult(id, TextContent("it broke", true));
      } else {
        fake_server::WriteError(id, -32602, "no such tool");
      }
    } else {
      fake_server::WriteError(id, -32601, "method not found");
    }
  }
}
