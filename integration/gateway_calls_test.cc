// bravebot-mcp gateway carrying calls that overlap, driven by an agent that
// declares form elicitation: a call the agent cancels while the server is
// slow, and calls sent at once before any result came back.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include "integration/gateway_fixture.h"

namespace bravebot::testing {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::SizeIs;

// Steps run at once by the agent.
Json Together(const std::vector<Json>& steps) { return {{"do", "together"}, {"steps", steps}}; }

class GatewayCallsTest : public GatewayTest {};

TEST_F(GatewayCallsTest, ACallTheAgentCancelsIsCancelledAtTheServerAndNeverAnswered) {
  SKIP_WITHOUT_GATEWAY_PEERS();
  // Holds its first call until it is told of its cancellation, writing on
  // its standard error what it was sent; answers every later one.
  DeclareFault("stuck", "hang-until-cancelled");
  Request({"stuck"});
  Json held = CallTool("stuck__echo", {{"text", "held"}});
  held["cancelAfterMs"] = 2000;
  Json scenario = Gateway({Accept("1"), Accept("1"),    // the server, its list
                           Accept("1"), Accept("1")});  // each call
  // A sleep after the cancel, for an answer to the cancelled call to come.
  scenario["steps"] = Json::array({ListTools(),
                                   held,
                                   {{"do", "sleep"}, {"ms", 1000}},
                                   CallTool("stuck__echo", {{"text", "next"}})});
  Json transcript = Agent(scenario);

  std::vector<Json> calls = StepsOf(transcript, "callTool");
  ASSERT_THAT(calls, SizeIs(2));
  // The SDK gives up on the call as its signal is aborted.
  EXPECT_TRUE(calls[0].contains("error")) << calls[0].dump();
  ASSERT_THAT(transcript["calls"], SizeIs(2)) << transcript.dump();
  // The gateway answered the next call, and never the cancelled one.
  EXPECT_THAT(transcript["answered"], Not(Contains(transcript["calls"][0])))
      << transcript["answered"].dump() << "\n"
      << transcript["errors"].dump();
  EXPECT_THAT(transcript["answered"], Contains(transcript["calls"][1]));
  EXPECT_THAT(transcript["errors"], IsEmpty());
  // The server was sent the call, then told of its cancellation under the
  // id it knows the call by.
  const std::string stderr_text = transcript["stderr"].get<std::string>();
  std::smatch called;
  ASSERT_TRUE(std::regex_search(stderr_text, called, std::regex("stuck: call tools/call (\\S+)")))
      << stderr_text;
  EXPECT_THAT(stderr_text, HasSubstr("stuck: cancelled " + called[1].str() + " "));
  // And the next call works.
  EXPECT_FALSE(IsError(calls[1])) << calls[1].dump();
  EXPECT_EQ(CallText(calls[1]), "next");
}

TEST_F(GatewayCallsTest,
       CallsSentAtOnceAnAllowRuleRunsEachUnaskedAndTheCallAfterTheirResultsIsAsked) {
  SKIP_WITHOUT_GATEWAY_PEERS();
  DeclareEverything();
  RequestWithRules({"everything"}, {{"allow", {"Mcp(everything)"}}});
  // Each of the two takes two seconds at the server, so both are decided
  // before either has a result: the session is not yet released for
  // either, and the allow rule runs both, at once.
  Json slow =
      CallTool("everything__trigger-long-running-operation", {{"duration", 2}, {"steps", 2}});
  Json scenario = Gateway({Accept("1"), Accept("1"),  // the server, its list
                           Accept("1")});             // the call after the results
  scenario["steps"] = Json::array(
      {ListTools(), Together({slow, slow}), CallTool("everything__echo", {{"message", "after"}})});
  Json transcript = Agent(scenario);

  std::vector<Json> together = StepsOf(transcript, "together");
  ASSERT_THAT(together, SizeIs(1));
  ASSERT_THAT(together[0]["result"], SizeIs(2)) << together[0].dump();
  for (const Json& call : together[0]["result"]) {
    EXPECT_FALSE(IsError(call)) << call.dump();
    EXPECT_THAT(CallText(call), HasSubstr("Long running operation completed"));
  }
  std::vector<std::string> questions = Questions(transcript);
  ASSERT_THAT(questions, SizeIs(3)) << transcript["elicitations"].dump(2);
  // The server and its list; neither of the calls sent at once; then the
  // call after their results, asked whatever the allow rule says.
  EXPECT_THAT(questions[0], HasSubstr("Use this MCP server?"));
  EXPECT_THAT(questions[1], HasSubstr("Offer these tools to the model?"));
  EXPECT_THAT(questions[2], AllOf(HasSubstr("everything:echo"), HasSubstr("after")));
  EXPECT_EQ(CallText(StepsOf(transcript, "callTool").at(0)), "Echo: after");
}

TEST_F(GatewayCallsTest, AfterTheFirstResultACallTheAllowRuleCoversIsAskedAndANoRefusesIt) {
  SKIP_WITHOUT_GATEWAY_PEERS();
  DeclareListing("weather");
  RequestWithRules({"weather"}, {{"allow", {"Mcp(weather)"}}});
  Json scenario = Gateway({Accept("1"), Accept("1"),  // the server, its list
                           Decline()});               // the call after the first result
  scenario["steps"] = Json::array({ListTools(), CallTool("weather__echo", {{"text", "first"}}),
                                   CallTool("weather__echo", {{"text", "second"}})});
  Json transcript = Agent(scenario);

  std::vector<std::string> questions = Questions(transcript);
  ASSERT_THAT(questions, SizeIs(3)) << transcript["elicitations"].dump(2);
  EXPECT_THAT(questions[2], HasSubstr("weather:echo"));
  std::vector<Json> calls = StepsOf(transcript, "callTool");
  ASSERT_THAT(calls, SizeIs(2));
  EXPECT_EQ(CallText(calls[0]), "first");
  EXPECT_TRUE(IsError(calls[1])) << calls[1].dump();
  EXPECT_THAT(CallText(calls[1]), AllOf(HasSubstr("weather:echo"), Not(HasSubstr("second"))));
}

}  // namespace
}  // namespace bravebot::testing
