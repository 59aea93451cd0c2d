// A stored value is never shown: a canary value is planted every way a
// person could give one, and every output of every command is searched for it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "integration/profile_fixture.h"

namespace bravebot::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kCanary[] = "canary-7f3a9c2e51";

class SecretsTest : public ProfileTest {
 protected:
  // Runs the command and checks neither stream holds the canary.
  CommandOutput Checked(std::vector<std::string> words) {
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

  for (auto words : std::vector<std::vector<std::string>>{{"get", "weather"},
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

TEST_F(SecretsTest, BrokenFilesAreReportedWithoutQuotingThem) {
  std::filesystem::create_directories(Profile());
  std::ofstream(DeclarationFile())
      << "{\"version\": 1, \"servers\": {\"w\": {\"env\": {\"K\": \"" << kCanary << "\"} oops";
  for (auto words : std::vector<std::vector<std::string>>{
           {"list"}, {"get", "w"}, {"add", "x", "--", "npx"}, {"remove", "w"}}) {
    CommandOutput output = Checked(words);
    EXPECT_EQ(output.status, 1);
    EXPECT_THAT(output.err, HasSubstr("is not JSON"));
  }

  std::ofstream(DeclarationFile())
      << "{\"version\": 1, \"servers\": {\"w\": {\"transport\": \"stdio\", \"program\": \"npx\", "
      << "\"env\": {\"K\": [\"" << kCanary << "\"]}, \"" << kCanary << "\": 1}}}";
  for (auto words :
       std::vector<std::vector<std::string>>{{"list"}, {"list", "--json"}, {"get", "w"}}) {
    EXPECT_EQ(Checked(words).status, 1);
  }
}

}  // namespace
}  // namespace bravebot::testing
