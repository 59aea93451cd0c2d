// Approving a server: the question at a terminal, refused elsewhere, and
// approvals kept in step with what is declared.
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
using ::testing::Not;

class ApproveTest : public ProfileTest {
 protected:
  void SetUp() override {
    ASSERT_EQ(Mcp({"add", "weather", "--", "npx", "-y", "@dangahagan/weather-mcp@latest"}).status,
              0);
  }
  // `bravebot-mcp approve weather` at a terminal, `typed` typed once its
  // question shows (nothing where it is empty).
  CommandOutput ApproveTyping(const std::string& typed, std::vector<std::string> environment = {}) {
    if (environment.empty()) environment = Environment();
    std::vector<TerminalStep> steps;
    if (!typed.empty()) steps.push_back({"Use this MCP server? [y/N] ", typed});
    return RunAtTerminalStepByStep({OurProgram("bravebot-mcp"), "approve", "weather"}, environment,
                                   temporary_.path(), steps);
  }
  bool Approved(const std::string& alias) {
    return Mcp({"get", alias}).out.find("\n            approved\n") != std::string::npos ||
           Mcp({"get", alias}).out.find(" approved\n") != std::string::npos;
  }
};

TEST_F(ApproveTest, AYesAtTheTerminalApprovesTheDigestShown) {
  CommandOutput approve = ApproveTyping("y\n");
  EXPECT_EQ(approve.status, 0);
  EXPECT_THAT(approve.out, HasSubstr("  weather   stdio   npx -y @dangahagan/weather-mcp@latest"));
  EXPECT_THAT(approve.out, HasSubstr("variables: PATH"));
  EXPECT_THAT(approve.out, HasSubstr("Use this MCP server? [y/N] "));
  EXPECT_THAT(approve.out, HasSubstr("approved weather: digest 21307ff7"));
  EXPECT_THAT(Mcp({"list"}).out, HasSubstr("  weather  stdio  approved    21307ff7\n"));
  struct stat status;
  ASSERT_EQ(::stat((Profile() + "/mcp-approved").c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 07777, 0600u);
  EXPECT_THAT(ApproveTyping("").out, HasSubstr("weather is approved already"));
}

TEST_F(ApproveTest, APipedAddOfAnApprovedDigestSaysItIsApproved) {
  ASSERT_EQ(ApproveTyping("y\n").status, 0);
  CommandOutput again =
      Mcp({"add", "weather", "--", "npx", "-y", "@dangahagan/weather-mcp@latest"});
  EXPECT_EQ(again.status, 0) << again.err;
  EXPECT_THAT(again.out, HasSubstr("weather is approved already: run bravebot-mcp enable weather "
                                   "at a terminal to ask for it\n"));
  EXPECT_THAT(again.out, Not(HasSubstr("not approved")));
  // A second alias declaring the same thing resolves to the same approval.
  CommandOutput second = Mcp(
      {"add", "-s", "project", "forecast", "--", "npx", "-y", "@dangahagan/weather-mcp@latest"});
  EXPECT_THAT(second.out, HasSubstr("forecast is approved already: run bravebot-mcp enable "
                                    "forecast -s project at a terminal to ask for it\n"));
  EXPECT_EQ(nlohmann::json::parse(Mcp({"get", "forecast", "--json"}).out)["approved"], true);
  ASSERT_EQ(Mcp({"add", "other", "--", "/bin/cat"}).status, 0);
  EXPECT_EQ(nlohmann::json::parse(Mcp({"get", "other", "--json"}).out)["approved"], false);
}

// Declaring withdraws the approval of what the alias declared before, so
// approvals that cannot be read refuse add before anything is declared.
TEST_F(ApproveTest, ApprovalsThatCannotBeReadRefuseAddBeforeItDeclares) {
  std::ofstream(Profile() + "/mcp-approved") << "not an approval file\n";
  const std::string before = Slurp(DeclarationFile());
  CommandOutput add = Mcp({"add", "maps", "--", "/bin/cat"});
  EXPECT_EQ(add.status, 1);
  EXPECT_THAT(add.err,
              HasSubstr("bravebot-mcp add: " + Profile() + "/mcp-approved cannot be read"));
  EXPECT_THAT(add.err, HasSubstr("; nothing was declared\n"));
  EXPECT_EQ(Slurp(DeclarationFile()), before);
}

TEST_F(ApproveTest, AnythingElseApprovesNothing) {
  for (const char* typed : {"n\n", "\n", "maybe\n", "\x04"}) {
    CommandOutput approve = ApproveTyping(typed);
    EXPECT_EQ(approve.status, 0);
    EXPECT_THAT(approve.out, HasSubstr("weather is not approved")) << typed;
    EXPECT_THAT(Mcp({"list"}).out, HasSubstr("unapproved")) << typed;
  }
  EXPECT_FALSE(std::filesystem::exists(Profile() + "/mcp-approved"));
}

// The spec: "a key pressed for the last question does not answer this one".
// A y typed before the question is drawn is discarded: the question waits,
// and the end of the input typed once it shows approves nothing.
TEST_F(ApproveTest, AYesTypedBeforeTheQuestionShowsIsNotTaken) {
  CommandOutput approve = RunAtTerminalStepByStep(
      {OurProgram("bravebot-mcp"), "approve", "weather"}, Environment(), temporary_.path(),
      {{"", "y\n"}, {"Use this MCP server? [y/N] ", "\x04"}});
  EXPECT_EQ(approve.status, 0) << approve.out;
  EXPECT_THAT(approve.out, HasSubstr("weather is not approved"));
  EXPECT_THAT(Mcp({"list"}).out, HasSubstr("unapproved"));
  EXPECT_FALSE(std::filesystem::exists(Profile() + "/mcp-approved"));
}

TEST_F(ApproveTest, PipedItIsRefused) {
  CommandOutput approve = Mcp({"approve", "weather"});
  EXPECT_EQ(approve.status, 1);
  EXPECT_THAT(approve.err, HasSubstr("approve asks a question, and its standard input or output "
                                     "is not a terminal: run bravebot-mcp approve weather at a "
                                     "terminal"));
}

TEST_F(ApproveTest, IncognitoItIsRefused) {
  std::vector<std::string> environment = Environment();
  environment.push_back("BRAVEBOT_INCOGNITO=1");
  CommandOutput approve = ApproveTyping("y\n", environment);
  EXPECT_EQ(approve.status, 1);
  EXPECT_THAT(approve.out, HasSubstr("incognito"));
  EXPECT_FALSE(std::filesystem::exists(Profile() + "/mcp-approved"));
}

TEST_F(ApproveTest, ChangingWhatItRunsIsAServerNobodyApproved) {
  ASSERT_EQ(ApproveTyping("y\n").status, 0);
  ASSERT_EQ(Mcp({"add", "weather", "--", "npx", "-y", "@dangahagan/weather-mcp@1.4.0"}).status, 0);
  EXPECT_THAT(Mcp({"list"}).out, HasSubstr("unapproved"));
  // The old approval is gone whatever is answered: nothing declares it.
  EXPECT_THAT(Slurp(Profile() + "/mcp-approved"), Not(HasSubstr("server 21307ff7")));
  CommandOutput approve = ApproveTyping("n\n");
  EXPECT_THAT(approve.out, HasSubstr("npx -y @dangahagan/weather-mcp@1.4.0"));
  EXPECT_THAT(approve.out, HasSubstr("changed: argv"));
}

TEST_F(ApproveTest, AnApprovalAnotherDeclarationResolvesToIsKept) {
  ASSERT_EQ(Mcp({"add", "forecast", "--", "npx", "-y", "@dangahagan/weather-mcp@latest"}).status,
            0);
  ASSERT_EQ(ApproveTyping("y\n").status, 0);
  EXPECT_THAT(Mcp({"get", "forecast"}).out, HasSubstr("            approved\n"));
  ASSERT_EQ(Mcp({"remove", "weather"}).status, 0);
  EXPECT_THAT(Mcp({"get", "forecast"}).out, HasSubstr("            approved\n"));
  ASSERT_EQ(Mcp({"remove", "forecast"}).status, 0);
  EXPECT_THAT(Slurp(Profile() + "/mcp-approved"), Not(HasSubstr("server ")));
}

TEST_F(ApproveTest, AnApprovalFileThatCannotBeReadStopsEveryChange) {
  const std::string broken = "not the approvals format\n";
  std::ofstream(Profile() + "/mcp-approved") << broken;
  const std::string declarations = Slurp(DeclarationFile());
  for (auto words : std::vector<std::vector<std::string>>{
           {"add", "maps", "--", "npx"}, {"remove", "weather"}, {"list"}, {"get", "weather"}}) {
    CommandOutput output = Mcp(words);
    EXPECT_EQ(output.status, 1) << words[0];
    EXPECT_THAT(output.err, HasSubstr(Profile() + "/mcp-approved cannot be read at line 1"));
  }
  EXPECT_EQ(Slurp(Profile() + "/mcp-approved"), broken);
  EXPECT_EQ(Slurp(DeclarationFile()), declarations);
}

}  // namespace
}  // namespace bravebot::testing
