// Asking for a server from a checkout: add and enable at a terminal, disable,
// and forget, end to end.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "integration/profile_fixture.h"
#include "integration/terminal.h"

namespace bravebot::testing {
namespace {

using ::testing::HasSubstr;

// The [y/N] that ends each question these commands ask.
constexpr char kQuestion[] = "[y/N] ";

class EnableTest : public ProfileTest {
 protected:
  std::string Checkout() const { return temporary_.path(); }
  std::string Local() const { return Checkout() + "/.bravebot/settings.local.json"; }
  std::string Project() const { return Checkout() + "/.bravebot/settings.json"; }
  CommandOutput AtTerminal(std::vector<std::string> words, const std::vector<TerminalStep>& steps) {
    words.insert(words.begin(), OurProgram("bravebot-mcp"));
    return RunAtTerminalStepByStep(words, Environment(), Checkout(), steps);
  }
  nlohmann::json Requested(const std::string& path) {
    return nlohmann::json::parse(Slurp(path))["mcp"]["request"];
  }
};

TEST_F(EnableTest, AYesAtAddApprovesAndAsksForItInTheLocalFile) {
  CommandOutput add =
      AtTerminal({"add", "weather", "--", "npx", "-y", "weather-mcp@latest"}, {{kQuestion, "y\n"}});
  EXPECT_EQ(add.status, 0) << add.out;
  EXPECT_THAT(add.out, HasSubstr("Use this MCP server? [y/N] "));
  EXPECT_THAT(add.out, HasSubstr("npx fetches what it runs when it starts"));
  EXPECT_THAT(add.out, HasSubstr("weather-mcp@latest names no exact version, so it runs "
                                 "whatever is published under it"));
  EXPECT_THAT(add.out, HasSubstr("approved weather: " + Local() + " asks for it"));
  EXPECT_EQ(Requested(Local()), nlohmann::json::array({"weather"}));
  struct stat status;
  ASSERT_EQ(::stat(Local().c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 07777, 0600u);
  EXPECT_THAT(Mcp({"list"}).out, HasSubstr("  weather  stdio  approved"));
}

TEST_F(EnableTest, ANoAtAddLeavesItDeclaredAndAskedForNowhere) {
  CommandOutput add =
      AtTerminal({"add", "-s", "project", "weather", "--", "/bin/cat"}, {{kQuestion, "\n"}});
  EXPECT_THAT(add.out, HasSubstr("weather is declared, not approved, and asked for nowhere"));
  EXPECT_FALSE(std::filesystem::exists(Project()));
  // A file that asks for it already is said, since the next session there asks again.
  std::filesystem::create_directories(Checkout() + "/.bravebot");
  std::ofstream(Project()) << R"({"mcp": {"request": ["weather"]}, "theme": "dark"})";
  add =
      AtTerminal({"add", "-s", "project", "weather", "--", "/bin/cat", "-u"}, {{kQuestion, "n\n"}});
  EXPECT_THAT(add.out, HasSubstr(Project() + " asks for it already, so the next session there "
                                             "asks you again"));
}

TEST_F(EnableTest, EnableAsksWhereNotApprovedAndKeepsTheRestOfTheFile) {
  ASSERT_EQ(Mcp({"add", "weather", "--", "/bin/cat"}).status, 0);
  std::filesystem::create_directories(Checkout() + "/.bravebot");
  std::ofstream(Project()) << R"({"theme": "dark", "mcp": {"request": ["docs"]}})";
  CommandOutput enable = AtTerminal({"enable", "weather", "-s", "project"}, {{kQuestion, "y\n"}});
  EXPECT_EQ(enable.status, 0) << enable.out;
  EXPECT_THAT(enable.out, HasSubstr("Use this MCP server? [y/N] "));
  EXPECT_THAT(enable.out,
              HasSubstr(Project() + " now asks for weather: a session started here starts it"));
  auto settings = nlohmann::json::parse(Slurp(Project()));
  EXPECT_EQ(settings["theme"], "dark");
  EXPECT_EQ(settings["mcp"]["request"], nlohmann::json::array({"docs", "weather"}));
  // Approved now: no question, and asking twice changes nothing.
  enable = AtTerminal({"enable", "weather", "-s", "project"}, {});
  EXPECT_THAT(enable.out, ::testing::Not(HasSubstr("Use this MCP server?")));
  EXPECT_THAT(enable.out, HasSubstr(Project() + " asks for weather already"));
}

TEST_F(EnableTest, WhatTheAdministratorRefusesIsAskedForAndSaidNotToStart) {
  const std::string managed = temporary_.Join("managed.json");
  std::ofstream(managed) << R"({"mcp": {"deny": [{"command": ["/bin/cat"]}]}})";
  std::vector<std::string> environment = Environment();
  environment.push_back("BRAVEBOT_MANAGED_FILE=" + managed);
  CommandOutput add =
      RunAtTerminalStepByStep({OurProgram("bravebot-mcp"), "add", "cat", "--", "/bin/cat"},
                              environment, Checkout(), {{kQuestion, "y\n"}});
  EXPECT_THAT(add.out, HasSubstr("approved cat: " + Local() + " asks for it"));
  EXPECT_THAT(add.out, HasSubstr("cat will not start, whatever is declared or approved: " +
                                 managed + ", which this machine's administrator manages, denies"));
  CommandOutput get =
      RunCommand({OurProgram("bravebot-mcp"), "get", "cat"}, environment, Checkout());
  EXPECT_THAT(get.out, HasSubstr("approved  not started: " + managed));
}

TEST_F(EnableTest, EnablePipedIsRefused) {
  ASSERT_EQ(Mcp({"add", "weather", "--", "/bin/cat"}).status, 0);
  CommandOutput enable = Mcp({"enable", "weather"});
  EXPECT_EQ(enable.status, 1);
  EXPECT_THAT(enable.err, HasSubstr("enable asks a question, and its standard input or output is "
                                    "not a terminal: run bravebot-mcp enable weather at a "
                                    "terminal"));
}

TEST_F(EnableTest, AFileThatDoesNotParseIsLeftAsItWas) {
  ASSERT_EQ(Mcp({"add", "weather", "--", "/bin/cat"}).status, 0);
  std::filesystem::create_directories(Checkout() + "/.bravebot");
  const std::string broken = R"({"mcp": {"request": "weather"}})";
  std::ofstream(Local()) << broken;
  CommandOutput enable = AtTerminal({"enable", "weather"}, {{kQuestion, "y\n"}});
  EXPECT_EQ(enable.status, 1);
  EXPECT_THAT(enable.out, HasSubstr("is not a list"));
  EXPECT_THAT(enable.out, ::testing::Not(HasSubstr("Use this MCP server?")));
  EXPECT_EQ(Slurp(Local()), broken);
  EXPECT_THAT(Mcp({"list"}).out, HasSubstr("unapproved"));
}

TEST_F(EnableTest, ALinkInTheCheckoutIsNotWrittenThrough) {
  ASSERT_EQ(Mcp({"add", "weather", "--", "/bin/cat"}).status, 0);
  std::filesystem::create_directories(temporary_.Join("elsewhere"));
  std::filesystem::create_directory_symlink(temporary_.Join("elsewhere"),
                                            Checkout() + "/.bravebot");
  CommandOutput enable = AtTerminal({"enable", "weather"}, {{kQuestion, "y\n"}});
  EXPECT_EQ(enable.status, 1);
  EXPECT_THAT(enable.out, HasSubstr("link"));
  EXPECT_TRUE(std::filesystem::is_empty(temporary_.Join("elsewhere")));
}

TEST_F(EnableTest, DisableTakesItOutOfEachFileAndKeepsTheApproval) {
  ASSERT_EQ(AtTerminal({"add", "weather", "--", "/bin/cat"}, {{kQuestion, "y\n"}}).status, 0);
  ASSERT_EQ(AtTerminal({"enable", "weather", "-s", "project"}, {}).status, 0);
  CommandOutput disable = Mcp({"disable", "weather"});
  EXPECT_EQ(disable.status, 0);
  EXPECT_THAT(disable.out, HasSubstr(Local() + " no longer asks for weather\n"));
  EXPECT_THAT(disable.out, HasSubstr(Project() + " no longer asks for weather\n"));
  EXPECT_EQ(Requested(Local()), nlohmann::json::array());
  EXPECT_THAT(Mcp({"list"}).out, HasSubstr("  weather  stdio  approved"));
  EXPECT_THAT(Mcp({"disable", "weather"}).out, HasSubstr("no settings file here asks for weather"));
  // enable puts it back without asking.
  CommandOutput enable = AtTerminal({"enable", "weather"}, {});
  EXPECT_THAT(enable.out, ::testing::Not(HasSubstr("Use this MCP server?")));
  EXPECT_EQ(Requested(Local()), nlohmann::json::array({"weather"}));
}

TEST_F(EnableTest, ForgetSaysWhatItDropped) {
  std::filesystem::create_directories(Profile());
  const std::string project = temporary_.Join("gone/app");  // never existed: taken as typed
  std::ofstream(Profile() + "/mcp-tools") << "# bravebot-mcp tools, format 1\nweather\t"
                                             "get_current_conditions\t"
                                          << project << "\n";
  CommandOutput forget = Mcp({"forget", project});
  EXPECT_EQ(forget.status, 0) << forget.err;
  EXPECT_EQ(forget.out, "weather:get_current_conditions is asked about again before each call in " +
                            project + "\n");
  EXPECT_EQ(Mcp({"forget", project}).out,
            "nothing was recorded for " + project + " where there was nothing\n");
}

TEST_F(EnableTest, ReAddingAnApprovedAliasShowsWhatItDeclaresAndAsks) {
  std::ofstream(temporary_.Join("old-key")) << "old";
  std::ofstream(temporary_.Join("new-key")) << "new";
  ASSERT_EQ(AtTerminal({"add", "weather", "-e", "KEY_FILE=" + temporary_.Join("old-key"), "--",
                        "/bin/cat"},
                       {{kQuestion, "y\n"}})
                .status,
            0);
  // A stored value is not part of the digest: the approval stays, and the
  // new file the server may read is shown all the same.
  CommandOutput add = AtTerminal(
      {"add", "weather", "-e", "KEY_FILE=" + temporary_.Join("new-key"), "--", "/bin/cat"},
      {{kQuestion, "n\n"}});
  EXPECT_EQ(add.status, 0) << add.out;
  EXPECT_THAT(add.out, HasSubstr("may read: " + temporary_.Join("new-key")));
  EXPECT_THAT(add.out, HasSubstr("Use this MCP server? [y/N] "));
  EXPECT_THAT(add.out, HasSubstr("weather stays approved, since its digest did not change, and no "
                                 "file was changed to ask for it"));
  EXPECT_THAT(Mcp({"list"}).out, HasSubstr("  weather  stdio  approved"));
  add = AtTerminal({"add", "-s", "project", "weather", "-e",
                    "KEY_FILE=" + temporary_.Join("new-key"), "--", "/bin/cat"},
                   {{kQuestion, "y\n"}});
  EXPECT_THAT(add.out, HasSubstr("Use this MCP server? [y/N] "));
  EXPECT_THAT(add.out, HasSubstr("weather is approved already: " + Project() + " asks for it"));
  EXPECT_EQ(Requested(Project()), nlohmann::json::array({"weather"}));
}

TEST_F(EnableTest, TheEndOfTheInputEndsThePromptsLine) {
  CommandOutput add = AtTerminal({"add", "weather", "--", "/bin/cat"}, {{kQuestion, "\x04"}});
  EXPECT_THAT(add.out, HasSubstr("[y/N] \r\nweather is declared, not approved"));
  ASSERT_EQ(Mcp({"add", "docs", "--http", "https://mcp.example.com/mcp"}).status, 0);
  CommandOutput enable = AtTerminal({"enable", "docs"}, {{kQuestion, "\x04"}});
  EXPECT_THAT(enable.out, HasSubstr("[y/N] \r\ndocs is not approved"));
}

TEST_F(EnableTest, WhatEnableAndDisableSayIsWhatTheirPagesSay) {
  ASSERT_EQ(AtTerminal({"add", "weather", "--", "/bin/cat"}, {{kQuestion, "y\n"}}).status, 0);
  EXPECT_THAT(AtTerminal({"enable", "weather", "-s", "project"}, {}).out,
              HasSubstr(Project() + " now asks for weather: a session started here starts it\r\n"));
  CommandOutput disable = Mcp({"disable", "weather", "-s", "user"});
  EXPECT_EQ(disable.status, 0);
  EXPECT_EQ(disable.out, Profile() + "/settings.json does not ask for weather: nothing changed\n");
  const std::pair<std::vector<std::string>, std::string> refusals[] = {
      {{"enable", "a", "b"},
       "bravebot-mcp enable: enable takes one alias and -s local, project or user; bravebot-mcp "
       "enable --help says more\n"},
      {{"disable"},
       "bravebot-mcp disable: disable takes one alias and -s local, project or user; "
       "bravebot-mcp disable --help says more\n"},
      {{"forget", "a", "b"},
       "bravebot-mcp forget: forget takes one path, or none; bravebot-mcp forget --help says "
       "more\n"},
  };
  for (const auto& [words, said] : refusals) {
    CommandOutput refused = Mcp(words);
    EXPECT_EQ(refused.status, 2) << said;
    EXPECT_EQ(refused.err, said);
  }
}

TEST_F(EnableTest, AnUnusableSettingsFileAtAddDeclaresAndMakesNothing) {
  std::filesystem::create_directories(Checkout() + "/.bravebot");
  std::ofstream(Project()) << R"({"mcp": {"request": "docs"}})";
  CommandOutput add =
      AtTerminal({"add", "maps", "-s", "project", "--http", "https://maps.example.com/mcp"},
                 {{kQuestion, "y\n"}});
  EXPECT_EQ(add.status, 1);
  EXPECT_THAT(add.out, HasSubstr("bravebot-mcp add: " + Project() +
                                 " cannot be used: its mcp.request is not a list. It was left as "
                                 "it is: mend it by hand; nothing was declared"));
  EXPECT_THAT(add.out, ::testing::Not(HasSubstr("Use this MCP server?")));
  EXPECT_FALSE(std::filesystem::exists(Profile()));
}

}  // namespace
}  // namespace bravebot::testing
