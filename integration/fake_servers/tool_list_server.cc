// An MCP server offering a provider's pinned tool list, for the tests of the
// docs/connecting-*.md pages:
//   tool_list_server FILE LIST...
// FILE is one of integration/fixtures/tool_lists/*.json; each LIST names a
// member of it (`tools`, `remoteOnly`, `seenLater`) whose entries it offers,
// in that order. An entry is offered as `tools/list` gives it: our own
// members (`writes`, `why`, `offeredWhen`) are taken out. A call to any tool
// answers with the text "called TOOL", so a call that reached it shows.
#include <fstream>
#include <iostream>
#include <string>

#include "integration/fake_servers/fake_server.h"

using fake_server::json;

namespace {

json OfferedTools(const json& fixture, int count, char** lists) {
  json tools = json::array();
  for (int i = 0; i < count; ++i) {
    for (json entry : fixture.at(lists[i])) {
      for (const char* ours : {"writes", "why", "offeredWhen"}) entry.erase(ours);
      tools.push_back(entry);
    }
  }
  return tools;
}

std::string TextContent(const std::string& text) {
  json content = json::array();
  content.push_back({{"type", "text"}, {"text", text}});
  return json{{"content", content}}.dump();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: tool_list_server FILE LIST...\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  const json fixture = json::parse(in, nullptr, false);
  if (fixture.is_discarded()) {
    std::cerr << "tool_list_server: " << argv[1] << " is not JSON\n";
    return 2;
  }
  const json tools = OfferedTools(fixture, argc - 2, argv + 2);
  for (json message = fake_server::ReadRequest(); !message.is_null();
       message = fake_server::ReadRequest()) {
    const json& id = message["id"];
    const std::string method = fake_server::Method(message);
    if (method == "initialize") {
      fake_server::AnswerInitialize(message);
    } else if (method == "tools/list") {
      fake_server::WriteResult(id, json{{"tools", tools}}.dump());
    } else if (method == "tools/call") {
      fake_server::WriteResult(id, TextContent("called " + message["params"].value("name", "")));
    } else {
      fake_server::WriteError(id, -32601, "method not found");
    }
  }
}
