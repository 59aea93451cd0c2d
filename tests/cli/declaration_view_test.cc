#include "cli/declaration_view.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace bravebot {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(DeclarationViewTest, WordsAreShownSoTheyCanBeTypedBack) {
  EXPECT_EQ(DisplayWord("@dangahagan/weather-mcp@latest"), "@dangahagan/weather-mcp@latest");
  EXPECT_EQ(DisplayWord("a b"), "'a b'");
  EXPECT_EQ(DisplayWord("it's"), "'it'\\''s'");
  EXPECT_EQ(DisplayWord(""), "''");
  EXPECT_EQ(DisplayWord("$HOME"), "'$HOME'");
  EXPECT_EQ(DisplayWord("Zürich"), "Zürich");
  EXPECT_EQ(DisplayWord("\x1b[31mred"), "$'\\x1b[31mred'");
  EXPECT_EQ(DisplayWord("a\nb'"), "$'a\\x0ab\\''");
  // What a terminal would draw otherwise than as itself: a bidirectional
  // override, a zero-width space, a C1 CSI, a byte that is not UTF-8.
  EXPECT_EQ(DisplayWord("d\u202etxt.exe"), "$'d\\u202etxt.exe'");
  EXPECT_EQ(DisplayWord("a\u200bb"), "$'a\\u200bb'");
  EXPECT_EQ(DisplayWord("x\u009b2J"), "$'x\\u009b2J'");
  EXPECT_EQ(DisplayWord("\xff'"), "$'\\xff\\''");
  // Other characters past ASCII are drawn as they are.
  EXPECT_EQ(DisplayWord("/Users/Jos\u00e9"), "/Users/Jos\u00e9");
}

TEST(DeclarationViewTest, BlockIsTheSpecs) {
  Declaration weather;
  weather.alias = "weather";
  weather.program = "npx";
  weather.arguments = {"-y", "@dangahagan/weather-mcp@latest"};
  weather.passed_variables = {"PATH"};
  EXPECT_EQ(DisplayDeclarationBlock(weather, "25edc5e8"),
            "  weather   stdio   npx -y @dangahagan/weather-mcp@latest\n"
            "            variables: PATH\n"
            "            digest: 25edc5e8\n");
}

TEST(DeclarationViewTest, StoredValuesAreShownByNameAndFilesAsMayRead) {
  Declaration brave;
  brave.alias = "brave";
  brave.program = "npx";
  brave.arguments = {"-y", "brave-search"};
  brave.stored_variables = {{"BRAVE_API_KEY_FILE", "/Users/you/keys/brave-api-key"},
                            {"TOKEN", "sk-live-secret"}};
  brave.passed_variables = {"PATH"};
  brave.may_read = {"/Users/you/keys/brave-api-key"};
  brave.directory = "/srv/brave";
  std::string block = DisplayDeclarationBlock(brave, "abcd1234", {"unapproved"});
  EXPECT_THAT(block, HasSubstr("variables: BRAVE_API_KEY_FILE (stored), PATH, TOKEN (stored)\n"));
  EXPECT_THAT(block, HasSubstr("          may read: /Users/you/keys/brave-api-key\n"));
  EXPECT_THAT(block, HasSubstr("directory: /srv/brave\n"));
  EXPECT_THAT(block, HasSubstr("digest: abcd1234\n          unapproved\n"));
  EXPECT_THAT(block, Not(HasSubstr("sk-live-secret")));
  EXPECT_THAT(DeclarationSummaryJson(brave).dump(), Not(HasSubstr("sk-live-secret")));
}

TEST(DeclarationViewTest, HttpShowsItsUrl) {
  Declaration docs;
  docs.alias = "docs";
  docs.transport = Transport::kHttp;
  docs.url = "https://mcp.example.com/mcp";
  EXPECT_EQ(DisplayDeclarationBlock(docs, "256e540f"),
            "  docs   http   https://mcp.example.com/mcp\n"
            "         digest: 256e540f\n");
}

TEST(DeclarationViewTest, HeadersAreShownByNameAlone) {
  Declaration docs;
  docs.alias = "docs";
  docs.transport = Transport::kHttp;
  docs.url = "https://mcp.example.com/mcp";
  docs.headers = {{"X-Team", "team-7"}, {"Authorization", "Bearer sk-live-secret"}};
  const std::string block = DisplayDeclarationBlock(docs, "256e540f");
  EXPECT_EQ(block,
            "  docs   http   https://mcp.example.com/mcp\n"
            "         headers: Authorization (stored), X-Team (stored)\n"
            "         digest: 256e540f\n");
  const std::string json = DeclarationSummaryJson(docs).dump();
  EXPECT_THAT(json, HasSubstr(R"("headers":["Authorization","X-Team"])"));
  for (const std::string& shown : {block, json}) {
    EXPECT_THAT(shown, Not(HasSubstr("sk-live-secret")));
    EXPECT_THAT(shown, Not(HasSubstr("team-7")));
  }
}

TEST(DeclarationViewTest, TheOAuthClientIsShownWithItsSecretAsSetAlone) {
  Declaration docs;
  docs.alias = "docs";
  docs.transport = Transport::kHttp;
  docs.url = "https://mcp.example.com/mcp";
  docs.headers = {{"X-Team", "team-7"}};
  docs.sign_in = {"app-7", "sk-client-secret", {"read", "write"}};
  const std::string block = DisplayDeclarationBlock(docs, "256e540f");
  EXPECT_EQ(block,
            "  docs   http   https://mcp.example.com/mcp\n"
            "         headers: X-Team (stored)\n"
            "         client id: app-7\n"
            "         client secret: set\n"
            "         oauth scopes: read, write\n"
            "         digest: 256e540f\n");
  const std::string json = DeclarationSummaryJson(docs).dump();
  EXPECT_THAT(json, HasSubstr(R"("oauth":{"client_id":"app-7","client_secret_stored":true,)"
                              R"("scopes":["read","write"]})"));
  for (const std::string& shown : {block, json}) {
    EXPECT_THAT(shown, Not(HasSubstr("sk-client-secret")));
  }
  docs.sign_in = {};
  EXPECT_THAT(DeclarationSummaryJson(docs).dump(), Not(HasSubstr("oauth")));
}

}  // namespace
}  // namespace bravebot
