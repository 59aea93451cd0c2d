#include "supervisor/tools/mcp_rules.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace bravebot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

McpRules RulesOf(const std::string& document) {
  McpRules rules;
  rules.AddRulesOf(nlohmann::json::parse(document), ".bravebot/settings.json");
  return rules;
}

TEST(McpRulesTest, ARuleNamesAServerOrOneOfItsTools) {
  auto server = ParseMcpRule("Mcp(weather)");
  ASSERT_TRUE(server.ok());
  EXPECT_EQ(**server, (McpRule{"weather", ""}));
  EXPECT_EQ(**ParseMcpRule("Mcp(weather:*)"), (McpRule{"weather", ""}));
  EXPECT_EQ(**ParseMcpRule("Mcp(weather:get_alerts)"), (McpRule{"weather", "get_alerts"}));
  EXPECT_FALSE(ParseMcpRule("Bash(ls)")->has_value());
  EXPECT_FALSE(ParseMcpRule("Mcp(weather").ok());
  EXPECT_FALSE(ParseMcpRule("Mcp(weather:)").ok());
  EXPECT_FALSE(ParseMcpRule("Mcp( weather)").ok());
  EXPECT_FALSE(ParseMcpRule("Mcp()").ok());
}

TEST(McpRulesTest, ANameMatchesWhole) {
  McpRules rules = RulesOf(R"j({"permissions": {"deny": ["Mcp(weather)"]}})j");
  EXPECT_EQ(rules.Decide("weather", "get_alerts"), RuleVerdict::kDeny);
  EXPECT_EQ(rules.Decide("weather2", "get_alerts"), RuleVerdict::kNone);
  rules = RulesOf(R"j({"permissions": {"allow": ["Mcp(weather:get_alerts)"]}})j");
  EXPECT_EQ(rules.Decide("weather", "get_alerts"), RuleVerdict::kAllow);
  EXPECT_EQ(rules.Decide("weather", "get_alerts2"), RuleVerdict::kNone);
  EXPECT_EQ(rules.Decide("weather", "get"), RuleVerdict::kNone);
}

TEST(McpRulesTest, DenyOverAskOverAllowWhicheverFileEachCameFrom) {
  McpRules rules;
  rules.AddRulesOf(nlohmann::json::parse(R"j({"permissions": {"allow": ["Mcp(weather)"]}})j"), "a");
  rules.AddRulesOf(nlohmann::json::parse(R"j({"permissions": {"ask": ["Mcp(weather:x)"]}})j"), "b");
  rules.AddRulesOf(nlohmann::json::parse(R"j({"permissions": {"deny": ["Mcp(weather:y)"],
                                                              "allow": ["Bash(ls)"]}})j"),
                   "c");
  EXPECT_EQ(rules.Decide("weather", "x"), RuleVerdict::kAsk);
  EXPECT_EQ(rules.Decide("weather", "y"), RuleVerdict::kDeny);
  EXPECT_EQ(rules.Decide("weather", "z"), RuleVerdict::kAllow);
  EXPECT_THAT(rules.notes(), IsEmpty());
}

TEST(McpRulesTest, AFileAServerMayWriteIsReadForWhatNarrowsAlone) {
  const auto document = nlohmann::json::parse(R"j({"permissions": {
      "allow": ["Mcp(planter)", "Mcp(other:x)"], "ask": ["Mcp(other)"], "deny": ["Mcp(planter:y)"]}})j");
  McpRules rules;
  rules.AddRulesOf(document, "a", RulesRead::kNarrowingOnly);
  EXPECT_EQ(rules.Decide("planter", "x"), RuleVerdict::kNone);
  EXPECT_EQ(rules.Decide("planter", "y"), RuleVerdict::kDeny);
  EXPECT_EQ(rules.Decide("other", "x"), RuleVerdict::kAsk);
  rules.AddRulesOf(document, "b");
  EXPECT_EQ(rules.Decide("planter", "x"), RuleVerdict::kAllow);
}

TEST(McpRulesTest, WhatCannotBeReadDecidesNothingAndIsNamedNotQuoted) {
  McpRules rules = RulesOf(
      R"j({"permissions": {"deny": ["Mcp(sk-live-123", 7, "Mcp(weather)"], "allow": "Mcp(docs)"}})j");
  EXPECT_EQ(rules.Decide("weather", "t"), RuleVerdict::kDeny);
  EXPECT_EQ(rules.Decide("docs", "t"), RuleVerdict::kNone);
  EXPECT_THAT(rules.notes(),
              ElementsAre("rule 1 of permissions.deny in .bravebot/settings.json decides nothing: "
                          "an Mcp rule ends with its closing parenthesis",
                          "rule 2 of permissions.deny in .bravebot/settings.json decides nothing: "
                          "a rule is a string",
                          "permissions.allow of .bravebot/settings.json is not a list, so none of "
                          "its rules decides a call"));
  for (const std::string& note : rules.notes()) EXPECT_THAT(note, Not(HasSubstr("sk-live")));
  EXPECT_THAT(RulesOf(R"j({"permissions": []})j").notes(),
              ElementsAre(HasSubstr("is not an object, so none of its rules decides a call")));
  EXPECT_THAT(RulesOf(R"j({"mcp": {}})j").notes(), IsEmpty());
}

// A file of a few MiB may hold a million rules that cannot be read: each
// would be a line the session prints as it opens.
TEST(McpRulesTest, PastFiveRulesThatCannotBeReadTheRestAreCounted) {
  nlohmann::json deny = nlohmann::json::array();
  for (int i = 0; i < 100000; ++i) deny.push_back("Mcp(");
  deny.push_back("Mcp(weather)");
  McpRules rules;
  rules.AddRulesOf({{"permissions", {{"deny", deny}, {"ask", {7, 8, 9, 10, 11, 12}}}}}, "s.json");
  EXPECT_EQ(rules.Decide("weather", "t"), RuleVerdict::kDeny);
  ASSERT_EQ(rules.notes().size(), 12u);
  EXPECT_EQ(rules.notes()[4],
            "rule 5 of permissions.deny in s.json decides nothing: an Mcp rule ends with its "
            "closing parenthesis");
  EXPECT_EQ(rules.notes()[5], "and 99995 more rules of permissions.deny in s.json decide nothing");
  EXPECT_EQ(rules.notes()[11], "and 1 more rule of permissions.ask in s.json decides nothing");
}

}  // namespace
}  // namespace bravebot
