#include "supervisor/auth/oauth_url.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace bravebot {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(OAuthUrlTest, ReadsTheOriginInItsCanonicalSpelling) {
  auto url = ReadOAuthUrl("HTTPS://MCP.Example.com:443/Mcp?a=B#top");
  ASSERT_TRUE(url.ok()) << url.error().message();
  EXPECT_EQ(url->origin, "https://mcp.example.com");
  EXPECT_EQ(url->path, "/Mcp");
  EXPECT_EQ(url->query, "a=B");
  EXPECT_TRUE(url->has_fragment);
  EXPECT_EQ(url->Canonical(), "https://mcp.example.com/Mcp?a=B");
  EXPECT_EQ(ReadOAuthUrl("http://example.com:8080")->origin, "http://example.com:8080");
  EXPECT_EQ(ReadOAuthUrl("http://[::1]:80/x")->origin, "http://[::1]");
}

TEST(OAuthUrlTest, EverySpellingOfTheMachineItselfIsItAndNoOtherHost) {
  EXPECT_TRUE(ReadOAuthUrl("http://127.0.0.1:5/")->this_machine);
  EXPECT_TRUE(ReadOAuthUrl("http://localhost/")->this_machine);
  EXPECT_TRUE(ReadOAuthUrl("http://[::1]/")->this_machine);
  EXPECT_TRUE(ReadOAuthUrl("http://0.0.0.0:5/")->this_machine);
  EXPECT_TRUE(ReadOAuthUrl("http://0.1.2.3/")->this_machine);
  EXPECT_TRUE(ReadOAuthUrl("http://[::]/")->this_machine);
  EXPECT_TRUE(ReadOAuthUrl("http://a.b.localhost/")->this_machine);
  EXPECT_FALSE(ReadOAuthUrl("http://127.example.com/")->this_machine);
  EXPECT_FALSE(ReadOAuthUrl("http://localhost.example.com/")->this_machine);
  EXPECT_FALSE(ReadOAuthUrl("http://0.example.com/")->this_machine);
  EXPECT_FALSE(ReadOAuthUrl("http://10.0.0.1/")->this_machine);
}

TEST(OAuthUrlTest, SecretsGoOnlyOverHttpsOrToTheMachineItself) {
  EXPECT_TRUE(ReadSecureOAuthUrl("https://a.example/token", "the token endpoint").ok());
  EXPECT_TRUE(ReadSecureOAuthUrl("http://127.0.0.1:9/token", "the token endpoint").ok());
  auto plain = ReadSecureOAuthUrl("http://a.example/token", "the token endpoint");
  ASSERT_FALSE(plain.ok());
  EXPECT_THAT(plain.error().message(), HasSubstr("the token endpoint is plain http"));
  EXPECT_FALSE(ReadSecureOAuthUrl("https://a.example/token#x", "the token endpoint").ok());
  auto credentials = ReadSecureOAuthUrl("https://me:pw@a.example/", "the token endpoint");
  ASSERT_FALSE(credentials.ok());
  EXPECT_THAT(credentials.error().message(), Not(HasSubstr("pw")));
}

TEST(OAuthUrlTest, SameResourceIgnoresATrailingSlashOnly) {
  auto a = ReadOAuthUrl("https://Example.com/mcp");
  auto b = ReadOAuthUrl("https://example.com:443/mcp/");
  auto c = ReadOAuthUrl("https://example.com/MCP");
  EXPECT_TRUE(SameResource(*a, *b));
  EXPECT_FALSE(SameResource(*a, *c));
}

}  // namespace
}  // namespace bravebot
