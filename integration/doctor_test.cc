// bravebot-mcp doctor: a settings file that tries to declare a server is
// named by its key, never by what is inside it, and fails the doctor.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "integration/profile_fixture.h"

namespace bravebot::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class DoctorTest : public ProfileTest {
 protected:
  void SetUp() override {
    ASSERT_EQ(Mcp({"add", "weather", "--", "/bin/cat"}).status, 0);
    std::filesystem::create_directories(temporary_.Join(".bravebot"));
  }
  std::string Settings() const { return temporary_.Join(".bravebot/settings.json"); }
};

TEST_F(DoctorTest, AHealthyDirectoryPasses) {
  CommandOutput doctor = Mcp({"doctor"});
  EXPECT_EQ(doctor.status, 0) << doctor.err;
  EXPECT_THAT(doctor.out, HasSubstr("  weather  stdio  unapproved"));
}

TEST_F(DoctorTest, KeysThatTryToDeclareAServerAreNamedAndFail) {
  std::ofstream(Settings()) << R"({"mcpServers": {"evil": {"command": "curl", "env": {"TOKEN":
      "sk-canary-271828"}}}, "mcp": {"request": ["weather"], "deny": [], "servers": {"x":
      "sk-canary-271828"}}})";
  CommandOutput doctor = Mcp({"doctor"});
  EXPECT_EQ(doctor.status, 1);
  EXPECT_THAT(doctor.out, HasSubstr("ignored   mcpServers in " + Settings() +
                                    " declares an MCP server, which only " + DeclarationFile() +
                                    " may: nothing in it is started\n"));
  EXPECT_THAT(doctor.out, HasSubstr("ignored   mcp.servers in " + Settings()));
  EXPECT_THAT(doctor.out, Not(HasSubstr("mcp.deny in")));
  EXPECT_THAT(doctor.out + doctor.err, Not(HasSubstr("sk-canary-271828")));
  EXPECT_THAT(doctor.out + doctor.err, Not(HasSubstr("curl")));
}

TEST_F(DoctorTest, ASettingsFileNestedTooDeepIsNamedAsUnreadable) {
  std::ofstream(Settings()) << R"({"mcpServers": {"evil": )" << std::string(100'000, '[')
                            << std::string(100'000, ']') << "}}";
  CommandOutput doctor = Mcp({"doctor"});
  EXPECT_EQ(doctor.status, 1);
  EXPECT_THAT(doctor.err,
              HasSubstr(Settings() + " is nested deeper than 128 levels, which no file of "
                                     "bravebot-mcp needs. It was left as it is: mend it by hand"));
  // Too deep to read is not read at all, its keys included.
  EXPECT_THAT(doctor.out, Not(HasSubstr("ignored")));
}

TEST_F(DoctorTest, WhatTheAdministratorFilePinsIsNamed) {
  const std::string managed = temporary_.Join("managed.json");
  std::ofstream(managed) << R"({"mcp": {"allow": [{"host": "*.example.com"}], "deny": []}})";
  std::vector<std::string> environment = Environment();
  environment.push_back("BRAVEBOT_MANAGED_FILE=" + managed);
  CommandOutput doctor =
      RunCommand({OurProgram("bravebot-mcp"), "doctor"}, environment, temporary_.path());
  EXPECT_EQ(doctor.status, 0) << doctor.err;
  EXPECT_THAT(doctor.out, HasSubstr("pinned    mcp.allow in " + managed + "\n"));
  EXPECT_THAT(doctor.out, HasSubstr("pinned    mcp.deny in " + managed + "\n"));
}

TEST_F(DoctorTest, AKeyIsShownEscapedAndAnEmptyOneQuoted) {
  std::ofstream(Settings()) << R"({"mcp": {"\u001b]0;owned\u0007": 1, "x\nignored   forged": 2,)"
                            << R"( "": 3}})";
  CommandOutput doctor = Mcp({"doctor"});
  EXPECT_EQ(doctor.status, 1);
  EXPECT_THAT(doctor.out, HasSubstr("ignored   mcp.$'\\x1b]0;owned\\x07' in " + Settings()));
  EXPECT_THAT(doctor.out, HasSubstr("ignored   mcp.$'x\\x0aignored   forged' in " + Settings()));
  EXPECT_THAT(doctor.out, HasSubstr("ignored   mcp.'' in " + Settings()));
  EXPECT_THAT(doctor.out, Not(HasSubstr("\x1b")));
  EXPECT_THAT(doctor.out, Not(HasSubstr("\nignored   forged")));
}

TEST_F(DoctorTest, ItsRefusalsAreItsOwn) {
  std::ofstream(Settings()) << "{ not json";
  CommandOutput doctor = Mcp({"doctor"});
  EXPECT_EQ(doctor.status, 1);
  EXPECT_THAT(doctor.err, HasSubstr("bravebot-mcp doctor: " + Settings() + " is not JSON"));
  EXPECT_THAT(doctor.err, Not(HasSubstr("bravebot-mcp list:")));
}

// A settings file that is a fifo is refused, not waited on for a writer.
TEST_F(DoctorTest, AFifoForASettingsFileDoesNotHangIt) {
  ASSERT_EQ(::mkfifo(Settings().c_str(), 0600), 0);
  CommandOutput doctor = Mcp({"doctor"});
  EXPECT_EQ(doctor.status, 1);
  EXPECT_THAT(doctor.err, HasSubstr("bravebot-mcp doctor: " + Settings() +
                                    " is a fifo, not a regular file: move it away"));
}

}  // namespace
}  // namespace bravebot::testing
