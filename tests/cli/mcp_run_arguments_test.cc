#include "cli/mcp_run_arguments.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace bravebot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

Result<McpRunArguments> Parse(const std::vector<std::string>& words) {
  return ParseMcpRunArguments(words);
}

// Parses words that must be refused as a usage error; returns the message.
std::string Refusal(const std::vector<std::string>& words) {
  Result<McpRunArguments> parsed = ParseMcpRunArguments(words);
  EXPECT_FALSE(parsed.ok());
  if (parsed.ok()) return "";
  EXPECT_EQ(parsed.error().code(), ErrorCode::kUsage);
  return parsed.error().message();
}

TEST(McpRunArgumentsTest, ReadsADeclaredAliasAndACall) {
  auto parsed = Parse({"--call", "get_alerts", R"({"city": "Toronto"})", "weather"});
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_EQ(parsed->alias, "weather");
  EXPECT_EQ(parsed->call_tool, "get_alerts");
  EXPECT_EQ(parsed->call_arguments, R"({"city": "Toronto"})");
  EXPECT_FALSE(parsed->ad_hoc);
}

TEST(McpRunArgumentsTest, ReadsAServerGivenHereWithAddsWords) {
  auto parsed = Parse(
      {"--timeout", "5", "fs", "-e", "PATH", "--dir", "/srv", "--", "server", "--frobnicate"});
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_EQ(parsed->timeout_seconds, 5);
  ASSERT_TRUE(parsed->ad_hoc);
  EXPECT_EQ(parsed->ad_hoc->declaration.alias, "fs");
  EXPECT_EQ(parsed->ad_hoc->declaration.directory, "/srv");
  // After --, every word is the server's, flags included.
  EXPECT_THAT(parsed->ad_hoc->declaration.arguments, ElementsAre("--frobnicate"));
}

// A service given here takes add's sign-in flags as add takes them; the
// secret's file is read as the run begins (ReadClientSecretFile).
TEST(McpRunArgumentsTest, AServiceGivenHereTakesAddsSignInFlags) {
  auto parsed =
      Parse({"--call", "search", "{}", "docs", "--http", "https://x.example/mcp", "--client-id",
             "app-7", "--client-secret-file=secret", "--oauth-scope", "read"});
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  ASSERT_TRUE(parsed->ad_hoc);
  EXPECT_EQ(parsed->ad_hoc->declaration.sign_in.id, "app-7");
  EXPECT_THAT(parsed->ad_hoc->declaration.sign_in.scopes, ElementsAre("read"));
  EXPECT_EQ(parsed->ad_hoc->client_secret_file, "secret");
  EXPECT_THAT(Refusal({"docs", "--client-id", "app-7", "--", "server"}),
              HasSubstr("go with --http URL"));
}

TEST(McpRunArgumentsTest, ASecondCallIsRefusedNotTakenInPlaceOfTheFirst) {
  EXPECT_EQ(Refusal({"--call", "a", "{}", "--call", "b", "{}", "weather"}),
            "--call is given twice, and mcp-run calls one tool a run; mcp-run --help says what "
            "it takes");
}

TEST(McpRunArgumentsTest, ASecondTimeoutIsRefused) {
  EXPECT_THAT(Refusal({"--timeout", "5", "--timeout", "9", "weather"}),
              HasSubstr("--timeout is given twice"));
}

TEST(McpRunArgumentsTest, TimeoutIsRefusedWithStdio) {
  EXPECT_EQ(Refusal({"--stdio", "--timeout", "5", "weather"}),
            "--timeout does nothing with --stdio, where the client, not mcp-run, waits for the "
            "server's answers: leave it out; mcp-run --help says what it takes");
  EXPECT_TRUE(Parse({"--stdio", "weather"}).ok());
}

TEST(McpRunArgumentsTest, AnUnknownOptionIsNamed) {
  EXPECT_EQ(Refusal({"--frobnicate", "weather"}),
            "mcp-run does not know the option --frobnicate (a flag meant for the server goes "
            "after --); mcp-run --help says what it takes");
  EXPECT_THAT(Refusal({"weather", "-x", "--", "server"}),
              HasSubstr("mcp-run does not know the option -x"));
}

TEST(McpRunArgumentsTest, AnUnknownOptionWithAValueIsNamedWithoutTheValue) {
  std::string refusal = Refusal({"--token=sk-live-0123456789", "weather"});
  EXPECT_THAT(refusal, HasSubstr("mcp-run does not know the option --token "));
  EXPECT_THAT(refusal, Not(HasSubstr("sk-live")));
  refusal = Refusal({"weather", "-sk-live-0123456789"});
  EXPECT_THAT(refusal,
              HasSubstr("mcp-run does not know word 2 after mcp-run, which starts with -"));
  EXPECT_THAT(refusal, Not(HasSubstr("sk-live")));
}

TEST(McpRunArgumentsTest, StdioAndCallTogetherAreRefused) {
  EXPECT_THAT(Refusal({"--stdio", "--call", "t", "{}", "weather"}),
              HasSubstr("give --stdio or --call, not both"));
}

}  // namespace
}  // namespace bravebot
