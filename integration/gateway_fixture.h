// A checkout whose servers `bravebot-mcp gateway` serves to an agent (the
// TypeScript SDK's client, see gateway_client.h), for the gateway's tests:
// the questions it puts through elicitation, what it offers and calls, and
// what it leaves running when it ends.
#ifndef BRAVEBOT_INTEGRATION_GATEWAY_FIXTURE_H_
#define BRAVEBOT_INTEGRATION_GATEWAY_FIXTURE_H_

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "integration/gateway_client.h"
#include "integration/peers.h"
#include "integration/supervisor_fixture.h"

namespace bravebot::testing {

// The spec's answers to each question, as the gateway's schema has them.
inline const Json kServerAnswers = {"1", "2", "3"};
inline const Json kListAnswers = {"1", "2"};

// Scripted elicitation answers.
inline Json Accept(const std::string& answer) { return {{"action", "accept"}, {"answer", answer}}; }
inline Json Decline() { return {{"action", "decline"}}; }
inline Json Cancel() { return {{"action", "cancel"}}; }

// Steps of a scenario.
inline Json ListTools() { return {{"do", "listTools"}}; }
inline Json CallTool(const std::string& name, const Json& arguments = Json::object()) {
  return {{"do", "callTool"}, {"name", name}, {"arguments", arguments}};
}
inline Json WaitForListChanged(int timeout_ms) {
  return {{"do", "waitForListChanged"}, {"timeoutMs", timeout_ms}};
}

class GatewayTest : public SupervisorTest {
 protected:
  std::string PeersPath() const { return "PATH=" + PeersDirectory() + "/bin:/usr/bin:/bin"; }

  // server-everything as `alias`; `more` words after its program (such as
  // "stdio" and a word to find its process by).
  void DeclareEverything(const std::string& alias = "everything",
                         const std::vector<std::string>& more = {}) {
    std::vector<std::string> words = {"-e", PeersPath(), "--", "mcp-server-everything"};
    words.insert(words.end(), more.begin(), more.end());
    Declare(alias, words);
  }
  // server-filesystem as "files", running in and given the folder data/.
  void DeclareFiles() {
    std::filesystem::create_directories(Data());
    std::ofstream(Data() + "/hello.txt") << "hello from the data folder";
    Declare("files", {"--dir", Data(), "-e", PeersPath(), "--", "mcp-server-filesystem", Data()});
  }
  std::string Data() const { return temporary_.Join("data"); }
  // The listing server as `alias` (integration/fake_servers/listing_server.cc).
  void DeclareListing(const std::string& alias, const std::string& next = "Does another job.") {
    Declare(alias, {"-e", "LIST_NEXT=" + next, "--", OurProgram("fake_servers/listing_server")});
  }
  // The checkout's settings ask for `aliases`, with `permissions`.
  void RequestWithRules(const std::vector<std::string>& aliases, const Json& permissions) {
    std::ofstream(Checkout() + "/.bravebot/settings.json")
        << Json{{"mcp", {{"request", aliases}}}, {"permissions", permissions}}.dump();
  }

  // `bravebot-mcp gateway FLAGS...` as the agent starts it, in the checkout,
  // with the tests' environment; it declares form elicitation where
  // `elicitation` is true, and answers with `answers`.
  Json Gateway(const std::vector<Json>& answers, const std::vector<std::string>& flags = {},
               bool elicitation = true) {
    std::vector<std::string> argv = {OurProgram("bravebot-mcp"), "gateway"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    Json scenario = AgentScenario(argv, Environment(), Checkout());
    if (elicitation) scenario["capabilities"]["elicitation"] = true;
    scenario["elicitations"] = answers;
    return scenario;
  }
  // Runs the agent on `scenario`, in a folder of its own; its transcript,
  // in which the agent itself did not fail.
  Json Agent(const Json& scenario) {
    const std::string folder = temporary_.Join("agent-" + std::to_string(agents_++));
    std::filesystem::create_directories(folder);
    Json transcript = RunAgent(folder, scenario);
    EXPECT_FALSE(transcript.contains("fatal")) << transcript.dump(2);
    return transcript;
  }

  // The messages of the questions the agent was asked, in order.
  static std::vector<std::string> Questions(const Json& transcript) {
    std::vector<std::string> messages;
    for (const Json& asked : transcript.value("elicitations", Json::array())) {
      messages.push_back(asked["params"].value("message", ""));
    }
    return messages;
  }
  // The answers the `index`th question offered: the consts of its oneOf
  // (2025-11-25), else its enum (2025-06-18).
  static Json AnswersOffered(const Json& transcript, size_t index) {
    const Json answer =
        transcript["elicitations"].at(index)["params"]["requestedSchema"]["properties"]["answer"];
    if (!answer.contains("oneOf")) return answer.value("enum", Json());
    Json values = Json::array();
    for (const Json& choice : answer["oneOf"]) values.push_back(choice.value("const", ""));
    return values;
  }
  // The last listTools step of `transcript`.
  static Json LastList(const Json& transcript) {
    std::vector<Json> lists = StepsOf(transcript, "listTools");
    return lists.empty() ? Json::object() : lists.back();
  }
  // The tool named `name` in a listTools step, or null.
  static Json Tool(const Json& list_step, const std::string& name) {
    for (const Json& tool : list_step["result"].value("tools", Json::array())) {
      if (tool.value("name", "") == name) return tool;
    }
    return nullptr;
  }
  static bool IsError(const Json& call_step) {
    return call_step.contains("result") && call_step["result"].value("isError", false);
  }

  int agents_ = 0;
};

#define SKIP_WITHOUT_GATEWAY_PEERS()                                                     \
  SKIP_WITHOUT_PEERS();                                                                  \
  if (!std::filesystem::exists(::bravebot::testing::PeersDirectory() +                   \
                               "/client/node_modules/@modelcontextprotocol/sdk"))        \
  GTEST_SKIP() << "the TypeScript SDK is not installed in "                              \
               << ::bravebot::testing::PeersDirectory() << ": scripts/install-peers.sh " \
               << "installs it"

}  // namespace bravebot::testing

#endif  // BRAVEBOT_INTEGRATION_GATEWAY_FIXTURE_H_
