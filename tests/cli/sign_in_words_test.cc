#include "cli/sign_in_words.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "confine/digest.h"
#include "tests/confine/testing/declarations.h"

namespace bravebot {
namespace {

using ::testing::HasSubstr;
using testing::ServiceDeclaration;

// 2026-12-06 10:30:00 UTC
constexpr std::int64_t kHalfPastTen = 1796553000;

StoredToken TokenFor(const Declaration& declaration, const std::string& origin) {
  return {.alias = declaration.alias,
          .digest = ComputeDigest(declaration).hex,
          .origin = origin,
          .access_token = "a",
          .token_endpoint = "https://as.example.com/token",
          .client_id = "c"};
}

TEST(SignInWordsTest, EachStateOfASignInIsSaidWithItsMinute) {
  EXPECT_EQ(SignInWords(std::nullopt, kHalfPastTen), "not signed in");
  StoredToken token =
      TokenFor(ServiceDeclaration("svc", "https://mcp.example.com/mcp"), "https://mcp.example.com");
  EXPECT_EQ(SignInWords(token, kHalfPastTen), "signed in");
  token.expires_at = kHalfPastTen + 60;
  EXPECT_EQ(SignInWords(token, kHalfPastTen), "signed in until 2026-12-06 10:31 UTC");
  // Expired at the very second it is said.
  EXPECT_EQ(SignInWords(token, kHalfPastTen + 60), "its sign-in expired at 2026-12-06 10:31 UTC");
  token.refresh_token = "r";
  EXPECT_EQ(SignInWords(token, kHalfPastTen + 61),
            "signed in; its token expired at 2026-12-06 10:31 UTC, and is renewed at its next "
            "start");
}

TEST(SignInWordsTest, ATokenIsKeptOnlyForItsAliasDigestAndOrigin) {
  const Declaration service = ServiceDeclaration("svc", "https://mcp.example.com/mcp");
  TokenFile tokens;
  tokens.Put(TokenFor(service, "https://mcp.example.com"));
  ASSERT_TRUE(KeptTokenIn(tokens, service));
  EXPECT_EQ(KeptTokenIn(tokens, service)->access_token, "a");

  // Declared alike under another alias: one service, another account.
  EXPECT_FALSE(KeptTokenIn(tokens, ServiceDeclaration("other", "https://mcp.example.com/mcp")));
  // The same alias changed: another digest, and another origin.
  EXPECT_FALSE(KeptTokenIn(tokens, ServiceDeclaration("svc", "https://mcp.example.com/v2")));
  EXPECT_FALSE(KeptTokenIn(tokens, ServiceDeclaration("svc", "https://moved.example.com/mcp")));
  Declaration program;
  program.alias = "svc";
  program.transport = Transport::kStdio;
  EXPECT_FALSE(KeptTokenIn(tokens, program));
}

TEST(SignInWordsTest, TheJsonFieldsAreAServicesOnly) {
  const Declaration service = ServiceDeclaration("svc", "https://mcp.example.com/mcp");
  nlohmann::json none;
  AddSignInFields(none, service, std::nullopt);
  EXPECT_EQ(none, (nlohmann::json{{"signed_in", false}}));

  StoredToken token = TokenFor(service, "https://mcp.example.com");
  token.expires_at = kHalfPastTen;
  nlohmann::json kept;
  AddSignInFields(kept, service, token);
  EXPECT_EQ(kept, (nlohmann::json{{"signed_in", true}, {"token_expires_at", kHalfPastTen}}));

  Declaration program;
  program.transport = Transport::kStdio;
  nlohmann::json nothing = nlohmann::json::object();
  AddSignInFields(nothing, program, token);
  EXPECT_EQ(nothing, nlohmann::json::object());
}

TEST(SignInWordsTest, LoginWarnsWhereAServerSeesTheBrowsersCommandLine) {
  EXPECT_EQ(SharedProcessesWarning({.user_namespace = true, .pid_namespace = true}), std::nullopt);
  std::optional<std::string> shared =
      SharedProcessesWarning({.user_namespace = true, .pid_namespace = false});
  ASSERT_TRUE(shared);
  EXPECT_THAT(*shared, HasSubstr("a confined server has no PID namespace of its own"));
  EXPECT_THAT(*shared, HasSubstr("stop the sessions running before you sign in"));
  EXPECT_TRUE(SharedProcessesWarning({.user_namespace = false, .pid_namespace = false}));
  // Not learned: no server starts on a guess, so none is there to read it.
  EXPECT_EQ(SharedProcessesWarning({.pid_namespace = false, .unknown = "no memory"}), std::nullopt);
}

}  // namespace
}  // namespace bravebot
