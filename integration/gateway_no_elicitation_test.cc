// bravebot-mcp gateway for agents that cannot be asked (no elicitation, as
// Codex and the MCP inspector): only what was said yes to is offered, and each
// refusal names the terminal command that answers its question. And what the
// gateway leaves running when it ends, however it ends.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <set>
#include <string>
#include <thread>

#include "integration/gateway_fixture.h"
#include "integration/process_scan.h"
#include "integration/terminal.h"

namespace bravebot::testing {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
// The [y/N] that ends each question these commands ask.
constexpr char kQuestion[] = "[y/N] ";
using ::testing::Not;

class GatewayWithoutElicitationTest : public GatewayTest {
 protected:
  void SetUp() override {
    GatewayTest::SetUp();
    if (!PeersInstalled()) return;
    DeclareEverything();
    Request({"everything"});
  }
  // A gateway for an agent that declares no elicitation, running `steps`.
  Json Unasked(const Json& steps) {
    Json scenario = Gateway({}, {}, false);
    scenario["steps"] = steps;
    return Agent(scenario);
  }
  // `bravebot-mcp WORDS...` at a terminal in the checkout, typing `steps`.
  CommandOutput AtTerminal(const std::vector<std::string>& words,
                           const std::vector<TerminalStep>& steps) {
    std::vector<std::string> argv = {OurProgram("bravebot-mcp")};
    argv.insert(argv.end(), words.begin(), words.end());
    return RunAtTerminalStepByStep(argv, Environment(), Checkout(), steps);
  }
};

TEST_F(GatewayWithoutElicitationTest, EachQuestionIsRefusedNamingTheCommandThatAnswersIt) {
  SKIP_WITHOUT_GATEWAY_PEERS();
  // The server: left out, and said so where the agent reads.
  Json first = Unasked({ListTools(), CallTool("bravebot_status")});
  EXPECT_THAT(Questions(first), IsEmpty());
  EXPECT_THAT(ToolNames(LastList(first)), ElementsAre("bravebot_status"));
  EXPECT_THAT(first["initialize"]["instructions"].get<std::string>(),
              HasSubstr("bravebot-mcp approve everything"));
  EXPECT_THAT(CallText(StepsOf(first, "callTool").at(0)),
              HasSubstr("bravebot-mcp approve everything"));
  CommandOutput server = AtTerminal({"approve", "everything"}, {{kQuestion, "y\n"}});
  ASSERT_EQ(server.status, 0) << server.out;

  // Its list: started, not offered, until said yes to at the terminal.
  Json second = Unasked({ListTools(), CallTool("bravebot_status")});
  EXPECT_THAT(ToolNames(LastList(second)), ElementsAre("bravebot_status"));
  EXPECT_THAT(CallText(StepsOf(second, "callTool").at(0)),
              HasSubstr("bravebot-mcp approve everything --tools"));
  CommandOutput list = AtTerminal({"approve", "everything", "--tools"}, {{kQuestion, "y\n"}});
  ASSERT_EQ(list.status, 0) << list.out;
  EXPECT_THAT(list.out, HasSubstr("everything:echo"));  // the list shown before the question

  // A call nobody answered: refused, naming the command for answer 2.
  Json third = Unasked({ListTools(), CallTool("everything__echo", {{"message", "hi"}})});
  EXPECT_THAT(ToolNames(LastList(third)), Contains("everything__echo"));
  // Each tool says so before it is called.
  EXPECT_THAT(Tool(LastList(third), "everything__echo").value("description", ""),
              AllOf(HasSubstr("This client takes no questions"),
                    HasSubstr("bravebot-mcp approve everything:echo")));
  Json refused = StepsOf(third, "callTool").at(0);
  EXPECT_TRUE(IsError(refused)) << refused.dump();
  EXPECT_THAT(CallText(refused), HasSubstr("bravebot-mcp approve everything:echo"));
  CommandOutput call = AtTerminal({"approve", "everything:echo"}, {{kQuestion, "y\n"}});
  ASSERT_EQ(call.status, 0) << call.out;
  EXPECT_THAT(Slurp(Profile() + "/mcp-tools"), HasSubstr("everything\techo\t"));

  // Now it runs; its result lets the session out, so the next call would be
  // asked, and is refused.
  Json fourth = Unasked({ListTools(), CallTool("everything__echo", {{"message", "hi"}}),
                         CallTool("everything__echo", {{"message", "again"}})});
  std::vector<Json> calls = StepsOf(fourth, "callTool");
  EXPECT_EQ(CallText(calls.at(0)), "Echo: hi");
  EXPECT_TRUE(IsError(calls.at(1))) << calls.at(1).dump();
  EXPECT_THAT(CallText(calls.at(1)), Not(HasSubstr("Echo: again")));
}

TEST_F(GatewayWithoutElicitationTest, TheInspectorListsAndCallsThroughTheGateway) {
  SKIP_WITHOUT_GATEWAY_PEERS();
  if (!InspectorInstalled())
    GTEST_SKIP() << "the inspector is not installed: scripts/install-peers.sh";
  // Said yes to through an agent that can be asked: the server, its list,
  // and answer 2 to echo. The listing server, whose list does not depend on
  // what the client declares (server-everything's does: the inspector,
  // declaring no elicitation, would get a list nobody said yes to).
  DeclareListing("weather");
  Request({"weather"});
  Json asked = Gateway({Accept("1"), Accept("1"), Accept("2")});
  asked["steps"] = Json::array({ListTools(), CallTool("weather__echo", {{"text", "first"}})});
  ASSERT_EQ(CallText(StepsOf(Agent(asked), "callTool").at(0)), "first");

  const std::vector<std::string> gateway = {OurProgram("bravebot-mcp"), "gateway", "--dir",
                                            Checkout()};
  CommandOutput listed = RunInspector(gateway, Environment(), {"--method", "tools/list"});
  ASSERT_EQ(listed.status, 0) << listed.err;
  EXPECT_THAT(listed.out, AllOf(HasSubstr("\"name\": \"weather__echo\""),
                                HasSubstr("\"name\": \"bravebot_status\"")));
  CommandOutput called = RunInspector(gateway, Environment(),
                                      {"--method", "tools/call", "--tool-name", "weather__echo",
                                       "--tool-arg", "text=through the gateway"});
  ASSERT_EQ(called.status, 0) << called.err;
  EXPECT_THAT(called.out, HasSubstr("\"text\": \"through the gateway\""));
}

// How the gateway ends: its input closed as the agent closes it, SIGTERM,
// or SIGKILL.
class GatewayEndTest : public GatewayTest, public ::testing::WithParamInterface<std::string> {};

TEST_P(GatewayEndTest, NothingItStartedOutlivesIt) {
  SKIP_WITHOUT_GATEWAY_PEERS();
  // Every process of the servers carries this word; the supervisor carries
  // the profile directory in its environment.
  const std::string mark = "gateway-end-mark-" + std::to_string(::getpid());
  DeclareEverything("everything", {"stdio", mark});
  DeclareFault("daemon", "double-fork", mark);  // leaves a grandchild in a session of its own
  Request({"daemon", "everything"});
  // Its directory given, so that the gateway is found by it among others'.
  Json scenario =
      Gateway({Accept("1"), Accept("1"), Accept("1"), Accept("1")}, {"--dir", Checkout()});
  Json end =
      GetParam() == "close" ? Json{{"do", "close"}} : Json{{"do", "kill"}, {"signal", GetParam()}};
  scenario["steps"] = Json::array({ListTools(), {{"do", "sleep"}, {"ms", 3000}}, end});
  std::future<Json> ran = std::async(std::launch::async, [&] { return Agent(scenario); });

  // Both servers and the daemon run while the agent sleeps, and the
  // gateway's supervisor, its child.
  size_t most = 0;
  std::set<std::string> supervisors;
  for (int i = 0;
       i < 600 && ran.wait_for(std::chrono::milliseconds(50)) == std::future_status::timeout; ++i) {
    most = std::max(most, ProcessesWithArgument(mark).size());
    for (const std::string& gateway : ProcessesWithArgument(Checkout())) {
      for (const std::string& child : ChildrenNamed(gateway, "bravebot-supervisor")) {
        supervisors.insert(child);
      }
    }
  }
  const bool supervisor_seen = !supervisors.empty();
  Json transcript = ran.get();
  EXPECT_THAT(ToolNames(LastList(transcript)),
              AllOf(Contains("everything__echo"), Contains("daemon__echo")));
  // What is looked for below was seen while it ran.
  EXPECT_GE(most, 3u) << "the servers and the daemon were never seen running";
  EXPECT_TRUE(supervisor_seen);

  // The supervisor stops them once it sees its input end: given 10 s.
  auto left = [&] {
    std::vector<std::string> pids = ProcessesWithArgument(mark);
    for (const std::string& pid : supervisors) {
      if (StillRuns(pid)) pids.push_back(pid);
    }
    return pids;
  };
  for (int i = 0; i < 100 && !left().empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_THAT(left(), IsEmpty()) << "left running after " << GetParam();
}

INSTANTIATE_TEST_SUITE_P(EndOfInputSigtermAndSigkill, GatewayEndTest,
                         ::testing::Values("close", "SIGTERM", "SIGKILL"));

}  // namespace
}  // namespace bravebot::testing
