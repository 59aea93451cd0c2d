#include "supervisor/tools/call_decision.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace bravebot {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using Kind = CallDecision::Kind;

CallFacts Offered() {
  CallFacts facts;
  facts.list_offered = true;
  facts.tool_listed = true;
  return facts;
}

Kind Decide(const CallFacts& facts) { return DecideCall(facts, "weather", "get_alerts").kind; }

TEST(CallDecisionTest, AToolOfAListNotOfferedIsRefused) {
  CallFacts facts = Offered();
  facts.list_offered = false;
  facts.asking = Asking::kSkipPermissions;
  EXPECT_EQ(Decide(facts), Kind::kRefuse);
  facts = Offered();
  facts.tool_listed = false;
  EXPECT_THAT(DecideCall(facts, "weather", "nope").refusal,
              HasSubstr("weather offered no tool named nope"));
}

TEST(CallDecisionTest, ADenyRefusesBeforeAnybodyIsAsked) {
  for (Asking asking :
       {Asking::kSomebody, Asking::kNobody, Asking::kOneShot, Asking::kSkipPermissions}) {
    CallFacts facts = Offered();
    facts.asking = asking;
    facts.rule = RuleVerdict::kDeny;
    facts.answered_in_project = true;
    CallDecision decision = DecideCall(facts, "weather", "get_alerts");
    EXPECT_EQ(decision.kind, Kind::kRefuse);
    EXPECT_EQ(decision.refusal,
              "refused: a deny rule in the settings file covers weather:get_alerts. Do not retry "
              "weather:get_alerts and do not look for another route to what it does: say in your "
              "reply what you needed from it.");
  }
}

TEST(CallDecisionTest, WithSomebodyAtTheTerminal) {
  CallFacts facts = Offered();
  EXPECT_EQ(Decide(facts), Kind::kAsk);
  facts.answered_in_project = true;
  EXPECT_EQ(Decide(facts), Kind::kRun);
  facts.rule = RuleVerdict::kAsk;  // an ask rule asks whatever answer 2 said
  EXPECT_EQ(Decide(facts), Kind::kAsk);
  facts.rule = RuleVerdict::kAllow;
  facts.answered_in_project = false;
  EXPECT_EQ(Decide(facts), Kind::kRun);
  facts.released = true;  // after a release, an allow rule and answer 2 decide nothing
  EXPECT_EQ(Decide(facts), Kind::kAsk);
  facts.answered_in_project = true;
  EXPECT_EQ(Decide(facts), Kind::kAsk);
}

TEST(CallDecisionTest, AOneShotRunAsksNobodyAndNoAllowRuleDecidesThere) {
  CallFacts facts = Offered();
  facts.asking = Asking::kOneShot;
  CallDecision decision = DecideCall(facts, "weather", "get_alerts");
  EXPECT_EQ(decision.kind, Kind::kRefuse);
  EXPECT_THAT(decision.refusal, HasSubstr("a one-shot run asks nobody"));
  facts.rule = RuleVerdict::kAllow;
  EXPECT_EQ(Decide(facts), Kind::kRefuse);
  facts.answered_in_project = true;  // answer 2 was given at the question
  EXPECT_EQ(Decide(facts), Kind::kRun);
  facts.released = true;
  decision = DecideCall(facts, "weather", "get_alerts");
  EXPECT_EQ(decision.kind, Kind::kRefuse);
  EXPECT_THAT(decision.refusal, HasSubstr("something private was let out of quarantine"));
}

TEST(CallDecisionTest, ASessionWithNoTerminalRefusesWhatWouldBeAskedAndKeepsItsAllowRules) {
  CallFacts facts = Offered();
  facts.asking = Asking::kNobody;
  EXPECT_EQ(Decide(facts), Kind::kRefuse);
  EXPECT_THAT(DecideCall(facts, "weather", "get_alerts").refusal,
              HasSubstr("nobody at a terminal"));
  facts.rule = RuleVerdict::kAllow;
  EXPECT_EQ(Decide(facts), Kind::kRun);
}

TEST(CallDecisionTest, SkippingPermissionsRunsWhatNoDenyRefuses) {
  CallFacts facts = Offered();
  facts.asking = Asking::kSkipPermissions;
  facts.released = true;
  facts.rule = RuleVerdict::kAsk;
  EXPECT_EQ(Decide(facts), Kind::kRun);
}

TEST(CallDecisionTest, TheQuestionIsDrawnAsTheSpecDrawsIt) {
  const nlohmann::json arguments = {{"city_name", "Toronto, Canada"}};
  const std::string description =
      "Get the most recent weather observation for a location. Use this for current weather\n"
      "or when asking about \"today's weather\", \"right now\", or recent conditions without a\n"
      "specific date.";
  EXPECT_EQ(CallQuestion("weather", "get_current_conditions", arguments, description, true),
            "  weather:get_current_conditions    (MCP)\n"
            "\n"
            "  city_name: \"Toronto, Canada\"\n"
            "\n"
            "\xe2\x94\x83 Get the most recent weather observation for a location. Use this for "
            "current weather\n"
            "\xe2\x94\x83 or when asking about \"today's weather\", \"right now\", or recent "
            "conditions without a\n"
            "  (e to expand)\n"
            "\n"
            "  Proceed?\n"
            "  1. Yes\n"
            "  2. Yes, and stop asking for weather:get_current_conditions in this project\n"
            "  3. No\n");
  EXPECT_THAT(CallQuestion("weather", "t", arguments, "", false),
              HasSubstr("in this project (not offered: this session writes nothing)\n"));
  const std::string plain = PlainCallQuestion("weather", "t", arguments, description);
  EXPECT_THAT(plain, HasSubstr("\xe2\x94\x83 specific date.\n\nProceed? [y/N]"));
  EXPECT_THAT(plain, Not(HasSubstr("e to expand")));
  // What the model wrote cannot draw on the terminal.
  EXPECT_THAT(CallQuestion("weather", "t", {{"q", "\x1b[2J"}}, "", true),
              HasSubstr("  q: \"\\u001b[2J\"\n"));
}

TEST(CallDecisionTest, AnythingButOneYOrTwoDeclines) {
  EXPECT_EQ(ReadCallAnswer("1", true), CallAnswer::kYes);
  EXPECT_EQ(ReadCallAnswer("y", false), CallAnswer::kYes);
  EXPECT_EQ(ReadCallAnswer("2", true), CallAnswer::kYesAndRecord);
  EXPECT_EQ(ReadCallAnswer("2", false), CallAnswer::kNo);
  EXPECT_EQ(ReadCallAnswer("3", true), CallAnswer::kNo);
  EXPECT_EQ(ReadCallAnswer("", true), CallAnswer::kNo);
  EXPECT_EQ(ReadCallAnswer("yes please", true), CallAnswer::kNo);
}

}  // namespace
}  // namespace bravebot
