// A stored value is never shown: a canary value is planted every way a
// person could give one, and every output of every command is searched for it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "integration/profile_fixture.h"
#include "integration/terminal.h"

namespace bravebot::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kCanary[] = "canary-7f3a9c2e51";

class SecretsTest : public ProfileTest {
 protected:
  // Runs the command and checks neither stream holds the canary.
  CommandOutput Checked(const std::vector<std::string>& words) {
    CommandOutput output = Mcp(words);
    std::string command;
    for (const std::string& word : words) command += word + " ";
    EXPECT_THAT(output.out, Not(HasSubstr(kCanary))) << command;
    EXPECT_THAT(output.err, Not(HasSubstr(kCanary))) << command;
    return output;
  }
  const std::string canary_ = kCanary;
};

TEST_F(SecretsTest, NoCommandShowsAStoredValue) {
  EXPECT_EQ(Checked({"add", "weather", "-e", "TOKEN=" + canary_, "OTHER=x " + canary_, "--", "npx",
                     "-y", "weather"})
                .status,
            0);
  EXPECT_EQ(Checked({"add", "-s", "user", "maps", "-e", "KEY=" + canary_, "-e", "PATH", "--",
                     "/usr/bin/env", "node"})
                .status,
            0);
  // The value is stored, where only its owner can read it.
  EXPECT_THAT(Slurp(DeclarationFile()), HasSubstr(kCanary));

  for (const auto& words : std::vector<std::vector<std::string>>{{"get", "weather"},
                                                                 {"get", "weather", "--json"},
                                                                 {"get", "maps"},
                                                                 {"list"},
                                                                 {"list", "--json"},
                                                                 {"get", "nothing"}}) {
    Checked(words);
  }
  // Replacing a declaration shows the new one, and never the old value.
  EXPECT_EQ(Checked({"add", "weather", "-e", "TOKEN=new", "--", "npx", "-y", "weather"}).status, 0);
  EXPECT_EQ(Checked({"remove", "maps"}).status, 0);
}

TEST_F(SecretsTest, NoRefusalRepeatsAWordThatMayBeAKey) {
  const std::vector<std::vector<std::string>> refused = {
      {"add", "weather", "-e", "WEATHER_TOKEN", canary_, "--", "npx"},
      {"add", "weather", "-e", canary_, "--", "npx"},
      {"add", "weather", "-e", "A=1", canary_, "--", "npx"},
      {"add", "-e", "TOKEN=" + canary_, "weather", "--", "npx"},
      {"add", "TOKEN=" + canary_, "--", "npx"},
      {"add", "weather", "-s", "TOKEN=" + canary_, "--", "npx"},
      {"add", "weather", "--dir", "TOKEN=" + canary_, "--", "npx"},
      {"add", "weather", "-e", "A=" + canary_, "A=2", "--", "npx"},
      {"add", "weather", canary_, "--", "npx"},
      {"add", "weather", "--token=" + canary_, "--", "npx"},
      {"add", "docs", "--http", "https://user:" + canary_ + "@mcp.example.com/mcp"},
      {"add", "docs", "--http", "https://" + canary_ + "@mcp.example.com/mcp"},
      {"add", "docs", "--http", "https://mcp.example.com/mcp", "-e", "K=" + canary_},
      {"add", "weather", "-e", "API_KEY", "-" + canary_, "--", "npx"},
  };
  for (const auto& words : refused) {
    CommandOutput output = Checked(words);
    EXPECT_EQ(output.status, 2) << words[2];
    EXPECT_THAT(output.err, HasSubstr("nothing was declared")) << words[2];
  }
  EXPECT_FALSE(std::filesystem::exists(DeclarationFile()));

  // Words pasted where another command expects none are not repeated either.
  for (const auto& words : std::vector<std::vector<std::string>>{{canary_},
                                                                 {"get", "weather", canary_},
                                                                 {"list", canary_},
                                                                 {"remove", "TOKEN=" + canary_}}) {
    EXPECT_EQ(Checked(words).status, 2) << words[0];
  }
}

// A header declared for a service is a stored value too: typed, or read
// from the environment, it is shown by name and never by value, by every
// command that shows a declaration and in every refusal.
TEST_F(SecretsTest, NoCommandShowsAHeadersValue) {
  const std::string url = "https://mcp.example.com/mcp";
  EXPECT_EQ(
      Checked({"add", "docs", "--http", url, "--header", "Authorization=Bearer " + canary_}).status,
      0);
  std::vector<std::string> environment = Environment();
  environment.push_back("X-Api-Key=" + canary_);
  CommandOutput from_environment = RunCommand(
      {OurProgram("bravebot-mcp"), "add", "keyed", "--http", url, "--header", "X-Api-Key"},
      environment, temporary_.path());
  EXPECT_EQ(from_environment.status, 0) << from_environment.err;
  EXPECT_THAT(from_environment.out, Not(HasSubstr(kCanary)));
  EXPECT_THAT(from_environment.out, HasSubstr("headers: X-Api-Key (stored)"));
  // Both are stored, where only the owner can read them.
  EXPECT_THAT(Slurp(DeclarationFile()), HasSubstr("\"Bearer " + canary_ + "\""));
  EXPECT_THAT(Slurp(DeclarationFile()), HasSubstr("\"X-Api-Key\": \"" + canary_ + "\""));

  CommandOutput got = Checked({"get", "docs"});
  EXPECT_THAT(got.out, HasSubstr("headers: Authorization (stored)"));
  for (const auto& words : std::vector<std::vector<std::string>>{{"get", "docs", "--json"},
                                                                 {"get", "keyed"},
                                                                 {"list"},
                                                                 {"list", "--json"},
                                                                 {"reach", "docs"},
                                                                 {"reach", "keyed", "--json"},
                                                                 {"doctor"},
                                                                 {"approve", "docs"}}) {
    Checked(words);
  }
  // The question a person answers names the header, never its value.
  CommandOutput asked =
      RunAtTerminalStepByStep({OurProgram("bravebot-mcp"), "approve", "docs"}, Environment(),
                              temporary_.path(), {{"Use this MCP server? [y/N] ", "y\n"}});
  EXPECT_THAT(asked.out, HasSubstr("headers: Authorization (stored)"));
  EXPECT_THAT(asked.out, Not(HasSubstr(kCanary)));
  EXPECT_THAT(asked.err, Not(HasSubstr(kCanary)));

  // Every refusal of a header names it alone.
  const std::vector<std::vector<std::string>> refused = {
      {"add", "docs", "--http", url, "--header", "Authorization: Bearer " + canary_},
      {"add", "docs", "--http", url, "--header", "Bearer " + canary_},
      {"add", "docs", "--http", url, "--header", "Host=" + canary_},
      {"add", "docs", "--http", url, "--header", "X-Key=" + canary_ + "\r\nHost: x"},
      {"add", "docs", "--http", url, "--header", "X-Key=" + canary_, "--header", "x-key=2"},
      {"add", "docs", "--header", "X-Key=" + canary_, "--", "npx"},
      {"add", "docs", "--http", url, "--header", "X-Unset-Key"},
  };
  for (const auto& words : refused) {
    CommandOutput output = Checked(words);
    EXPECT_EQ(output.status, 2) << words.back();
    EXPECT_THAT(output.err, HasSubstr("nothing was declared")) << words.back();
  }
  // A hand edit that breaks a header is reported without quoting it.
  std::string file = Slurp(DeclarationFile());
  const std::string bearer = "\"Authorization\": \"Bearer " + canary_ + "\"";
  ASSERT_NE(file.find(bearer), std::string::npos) << file;
  file.replace(file.find(bearer), bearer.size(), "\"Host\": \"" + canary_ + "\"");
  std::ofstream(DeclarationFile()) << file;
  for (const auto& words : std::vector<std::vector<std::string>>{
           {"list"}, {"get", "docs"}, {"get", "docs", "--json"}}) {
    Checked(words);
  }
}

// An OAuth client's secret is read from a file as add runs and stored like
// a value: every view shows it as set, and no refusal, hand-edited or typed,
// quotes it. Nothing but mcp.json holds it.
TEST_F(SecretsTest, NoCommandShowsAClientSecret) {
  const std::string url = "https://mcp.example.com/mcp";
  std::ofstream(temporary_.Join("client-secret")) << canary_ << "\n";
  CommandOutput added =
      Checked({"add", "docs", "--http", url, "--client-id", "app-7", "--client-secret-file",
               "client-secret", "--oauth-scope", "read", "--oauth-scope", "write"});
  EXPECT_EQ(added.status, 0) << added.err;
  EXPECT_THAT(added.out, HasSubstr("client secret: set"));
  // Stored as read, its line end trimmed, where only the owner can read it.
  EXPECT_THAT(Slurp(DeclarationFile()), HasSubstr("\"client_secret\": \"" + canary_ + "\""));

  CommandOutput got = Checked({"get", "docs"});
  EXPECT_THAT(got.out, HasSubstr("client id: app-7"));
  EXPECT_THAT(got.out, HasSubstr("client secret: set"));
  EXPECT_THAT(got.out, HasSubstr("oauth scopes: read, write"));
  EXPECT_THAT(Checked({"get", "docs", "--json"}).out, HasSubstr("\"client_secret_stored\": true"));
  for (const auto& words : std::vector<std::vector<std::string>>{{"list"},
                                                                 {"list", "--json"},
                                                                 {"reach", "docs"},
                                                                 {"reach", "docs", "--json"},
                                                                 {"doctor"},
                                                                 {"approve", "docs"}}) {
    Checked(words);
  }
  CommandOutput asked =
      RunAtTerminalStepByStep({OurProgram("bravebot-mcp"), "approve", "docs"}, Environment(),
                              temporary_.path(), {{"Use this MCP server? [y/N] ", "y\n"}});
  EXPECT_THAT(asked.out, HasSubstr("client secret: set"));
  EXPECT_THAT(asked.out, Not(HasSubstr(kCanary)));
  EXPECT_THAT(asked.err, Not(HasSubstr(kCanary)));

  // Every refusal says what is wrong without the secret.
  std::ofstream(temporary_.Join("two-lines")) << canary_ << "\nsecond\n";
  std::ofstream(temporary_.Join("too-long")) << canary_ << std::string(4096, 'k');
  const std::vector<std::vector<std::string>> refused = {
      {"add", "docs", "--http", url, "--client-id", "app-7", "--client-secret-file", "two-lines"},
      {"add", "docs", "--http", url, "--client-id", "app-7", "--client-secret-file", "too-long"},
      {"add", "docs", "--http", url, "--client-secret-file", "client-secret"},
      {"add", "docs", "--client-id", "app-7", "--client-secret-file", "client-secret", "--", "npx"},
      {"add", "docs", "--http", url, "--client-id", "app " + canary_},
      {"add", "docs", "--http", url, "--client-id", "app-7", "--client-secret-file", "none"},
  };
  for (const auto& words : refused) {
    CommandOutput output = Checked(words);
    EXPECT_EQ(output.status, 2) << words.back();
    EXPECT_THAT(output.err, HasSubstr("nothing was declared")) << words.back();
  }
  // A hand edit that breaks the secret is reported without quoting it.
  std::string file = Slurp(DeclarationFile());
  const std::string stored = "\"client_secret\": \"" + canary_ + "\"";
  ASSERT_NE(file.find(stored), std::string::npos) << file;
  file.replace(file.find(stored), stored.size(), "\"client_secret\": \"" + canary_ + "\\u0007\"");
  std::ofstream(DeclarationFile()) << file;
  for (const auto& words : std::vector<std::vector<std::string>>{
           {"list"}, {"get", "docs"}, {"get", "docs", "--json"}, {"doctor"}}) {
    Checked(words);
  }
  // Nothing else in the profile directory holds it: not the approvals, not
  // a settings file.
  for (const auto& entry : std::filesystem::recursive_directory_iterator(Profile())) {
    if (!entry.is_regular_file() || entry.path() == DeclarationFile()) continue;
    EXPECT_THAT(Slurp(entry.path().string()), Not(HasSubstr(kCanary))) << entry.path();
  }
}

TEST_F(SecretsTest, BrokenFilesAreReportedWithoutQuotingThem) {
  std::filesystem::create_directories(Profile());
  std::ofstream(DeclarationFile())
      << "{\"version\": 1, \"servers\": {\"w\": {\"env\": {\"K\": \"" << kCanary << "\"} oops";
  for (const auto& words : std::vector<std::vector<std::string>>{
           {"list"}, {"get", "w"}, {"add", "x", "--", "npx"}, {"remove", "w"}}) {
    CommandOutput output = Checked(words);
    EXPECT_EQ(output.status, 1);
    EXPECT_THAT(output.err, HasSubstr("is not JSON"));
  }

  std::ofstream(DeclarationFile())
      << "{\"version\": 1, \"servers\": {\"w\": {\"transport\": \"stdio\", \"program\": \"npx\", "
      << "\"env\": {\"K\": [\"" << kCanary << "\"]}, \"" << kCanary << "\": 1}}}";
  for (const auto& words :
       std::vector<std::vector<std::string>>{{"list"}, {"list", "--json"}, {"get", "w"}}) {
    EXPECT_EQ(Checked(words).status, 1);
  }
}

}  // namespace
}  // namespace bravebot::testing
