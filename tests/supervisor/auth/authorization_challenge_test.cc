#include "supervisor/auth/authorization_challenge.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace bravebot {
namespace {

using ::testing::HasSubstr;

TEST(AuthorizationChallengeTest, ReadsTheSpecsExample) {
  auto bearer = ReadBearerChallenge(
      "Bearer resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource\",\n"
      "                         scope=\"files:read\"");
  // A folded line is no header value: a newline is refused.
  EXPECT_FALSE(bearer.ok());
  bearer = ReadBearerChallenge(
      "Bearer resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource\", "
      "scope=\"files:read\"");
  ASSERT_TRUE(bearer.ok()) << bearer.error().message();
  ASSERT_TRUE(bearer->has_value());
  EXPECT_EQ((*bearer)->resource_metadata,
            "https://mcp.example.com/.well-known/oauth-protected-resource");
  EXPECT_EQ((*bearer)->scope, "files:read");
  EXPECT_FALSE((*bearer)->error.has_value());
}

TEST(AuthorizationChallengeTest, ReadsAnInsufficientScopeChallenge) {
  auto bearer = ReadBearerChallenge(
      R"(Bearer error="insufficient_scope", scope="files:read files:write user:profile", )"
      R"(resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", )"
      R"(error_description="Additional file write permission required")");
  ASSERT_TRUE(bearer.ok()) << bearer.error().message();
  ASSERT_TRUE(bearer->has_value());
  EXPECT_EQ((*bearer)->error, "insufficient_scope");
  EXPECT_EQ((*bearer)->scope, "files:read files:write user:profile");
  EXPECT_EQ((*bearer)->error_description, "Additional file write permission required");
}

TEST(AuthorizationChallengeTest, TheSchemeAndNamesInAnyCaseAndTokensUnquoted) {
  auto bearer = ReadBearerChallenge("bEaReR Error=invalid_token,SCOPE=a");
  ASSERT_TRUE(bearer.ok()) << bearer.error().message();
  ASSERT_TRUE(bearer->has_value());
  EXPECT_EQ((*bearer)->error, "invalid_token");
  EXPECT_EQ((*bearer)->scope, "a");
}

TEST(AuthorizationChallengeTest, QuotedStringsUnescape) {
  auto bearer = ReadBearerChallenge(R"(Bearer error_description="say \"no\" \\ twice")");
  ASSERT_TRUE(bearer.ok()) << bearer.error().message();
  EXPECT_EQ((*bearer)->error_description, R"(say "no" \ twice)");
}

TEST(AuthorizationChallengeTest, SeveralChallengesInOneValue) {
  const std::string value =
      R"(Basic realm="x, y", Newauth realm="apps", type=1, title="Login to \"apps\"", )"
      R"(Negotiate abc+/==, Bearer scope="read", realm=example)";
  auto challenges = ParseAuthChallenges(value);
  ASSERT_TRUE(challenges.ok()) << challenges.error().message();
  ASSERT_EQ(challenges->size(), 4u);
  EXPECT_EQ((*challenges)[0].scheme, "Basic");
  EXPECT_EQ(*(*challenges)[0].Parameter("realm"), "x, y");
  EXPECT_EQ((*challenges)[1].parameters.size(), 3u);
  EXPECT_EQ(*(*challenges)[1].Parameter("title"), "Login to \"apps\"");
  EXPECT_EQ((*challenges)[2].token68, "abc+/==");
  EXPECT_EQ(*(*challenges)[3].Parameter("realm"), "example");
  auto bearer = ReadBearerChallenge(value);
  ASSERT_TRUE(bearer.ok());
  EXPECT_EQ((*bearer)->scope, "read");
}

TEST(AuthorizationChallengeTest, ABareSchemeAndEmptyElements) {
  auto challenges = ParseAuthChallenges(" , Basic, ,Bearer ,");
  ASSERT_TRUE(challenges.ok()) << challenges.error().message();
  ASSERT_EQ(challenges->size(), 2u);
  EXPECT_TRUE((*challenges)[1].parameters.empty());
  auto bearer = ReadBearerChallenge("Basic realm=x");
  ASSERT_TRUE(bearer.ok());
  EXPECT_FALSE(bearer->has_value());
}

TEST(AuthorizationChallengeTest, AValuelessNameIsAToken68) {
  // token68 may end in '=', so "scope=" alone is one, not an empty scope.
  auto challenges = ParseAuthChallenges("Bearer scope=, Basic");
  ASSERT_TRUE(challenges.ok()) << challenges.error().message();
  ASSERT_EQ(challenges->size(), 2u);
  EXPECT_EQ((*challenges)[0].token68, "scope=");
  EXPECT_TRUE((*challenges)[0].parameters.empty());
}

TEST(AuthorizationChallengeTest, RefusesWhatIsNotTheGrammar) {
  for (const char* value : {
           "",
           " , ",
           "Bearer scope=\"unclosed",
           "Bearer scope=\"ends in a backslash\\",
           "Bearer scope=a, scope=b",
           "Bearer scope=\"a\"b",
           "Bearer scope=a b",
           "=Bearer",
           "Bearer=x",
           "Bearer \"quoted\"",
           "Bearer x=\"\x01\"",
       }) {
    auto challenges = ParseAuthChallenges(value);
    EXPECT_FALSE(challenges.ok()) << value;
    if (!challenges.ok()) {
      EXPECT_THAT(challenges.error().message(),
                  HasSubstr("WWW-Authenticate header cannot be read"));
    }
  }
}

TEST(AuthorizationChallengeTest, NeverQuotesWhatItRefuses) {
  auto challenges = ParseAuthChallenges("Bearer secret=\"s3cr3t");
  ASSERT_FALSE(challenges.ok());
  EXPECT_THAT(challenges.error().message(), ::testing::Not(HasSubstr("s3cr3t")));
}

}  // namespace
}  // namespace bravebot
