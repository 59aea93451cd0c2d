// The approve forms that answer, at a terminal, what a session with nobody
// to ask cannot put: `approve ALIAS --tools` (the list question) and
// `approve ALIAS:TOOL` (answer 2 of the call question). Each is checked by
// what a later bravebot-supervisor session in mode no-terminal (a gateway
// whose client cannot be asked) does after it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "integration/supervisor_fixture.h"
#include "integration/terminal.h"

namespace bravebot::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kServerQuestion[] = "Use this MCP server? [y/N]";
constexpr char kListQuestion[] = "offer these tools to the model? [y/N]";
constexpr char kStopAsking[] = "Stop asking for weather:get_alerts in ";

class ApproveToolsTest : public SupervisorTest {
 protected:
  void SetUp() override {
    SupervisorTest::SetUp();
    Declare("weather", {"-e", "LIST_DESCRIPTION=Gets weather.", "--",
                        OurProgram("fake_servers/listing_server")});
    Request({"weather"});
  }

  std::vector<std::string> Approve(const std::string& what, bool tools) {
    std::vector<std::string> argv = {OurProgram("bravebot-mcp"), "approve", what};
    if (tools) argv.push_back("--tools");
    return argv;
  }
  CommandOutput AtTerminal(const std::vector<std::string>& argv,
                           const std::vector<TerminalStep>& steps,
                           std::vector<std::string> environment = {}) {
    if (environment.empty()) environment = Environment();
    return RunAtTerminalStepByStep(argv, environment, Checkout(), steps);
  }
  CommandOutput Piped(const std::vector<std::string>& argv) {
    return RunWithoutTerminal(argv, Environment(), Checkout(), "y\ny\n");
  }

  // A session nobody can be asked in, opened in the checkout, weather
  // started: server/start's result.
  Json StartWhereNobodyIsAsked(SessionClient& session) {
    Json opened =
        session.Call("session/open", {{"directory", Checkout()}, {"mode", "no-terminal"}});
    EXPECT_EQ(opened["result"]["servers"][0]["state"], "start") << opened.dump();
    return session.Call("server/start", {{"alias", "weather"}})["result"];
  }
  Json CallWhereNobodyIsAsked(const std::string& tool) {
    auto session = Session();
    Json started = StartWhereNobodyIsAsked(*session);
    EXPECT_EQ(started["offered"], true) << started.dump();
    Json call = session->Call(
        "tool/call",
        {{"alias", "weather"}, {"tool", tool}, {"arguments", {{"text", "hi"}}}})["result"];
    session->Call("session/close");
    return call;
  }
  // The server and its list said yes to with approve --tools.
  void ApproveServerAndList() {
    CommandOutput approved =
        AtTerminal(Approve("weather", true), {{kServerQuestion, "y\n"}, {kListQuestion, "y\n"}});
    ASSERT_EQ(approved.status, 0) << approved.out;
    ASSERT_THAT(approved.out, HasSubstr("approved weather's list of 5 tools")) << approved.out;
  }
  std::string Approvals() const { return Slurp(Profile() + "/mcp-approved"); }
  std::string ToolAnswers() const { return Slurp(Profile() + "/mcp-tools"); }
};

TEST_F(ApproveToolsTest, AYesToTheListIsOfferedWhereNobodyCanBeAsked) {
  // Before: neither the server nor its list starts where nobody is asked.
  {
    auto session = Session();
    Json opened =
        session->Call("session/open", {{"directory", Checkout()}, {"mode", "no-terminal"}});
    EXPECT_EQ(opened["result"]["servers"][0]["state"], "left-out");
  }
  CommandOutput approved =
      AtTerminal(Approve("weather", true), {{kServerQuestion, "y\n"}, {kListQuestion, "y\n"}});
  EXPECT_EQ(approved.status, 0) << approved.out;
  EXPECT_THAT(approved.out, HasSubstr("approved weather: digest "));
  // The list as a session draws it: its offer, the tools behind the margin,
  // the plain reading, then the question.
  EXPECT_THAT(approved.out, HasSubstr("weather offers 5 tools"));
  EXPECT_THAT(approved.out, HasSubstr("weather:get_alerts"));
  EXPECT_THAT(approved.out, HasSubstr("\xe2\x94\x83 Gets weather."));
  EXPECT_THAT(approved.out, HasSubstr("a plain reading of weather's list"));
  EXPECT_THAT(approved.out,
              HasSubstr("approved weather's list of 5 tools: a session here offers them to the "
                        "model, even where nobody can be asked"));
  EXPECT_THAT(Approvals(), HasSubstr("\ntools "));

  auto session = Session();
  Json started = StartWhereNobodyIsAsked(*session);
  EXPECT_EQ(started["toolsState"], "approved") << started.dump();
  EXPECT_EQ(started["offered"], true);
  EXPECT_FALSE(started.contains("note"));

  // Asked again, it says so and asks nothing.
  CommandOutput again = AtTerminal(Approve("weather", true), {});
  EXPECT_EQ(again.status, 0) << again.out;
  EXPECT_THAT(again.out, Not(HasSubstr(kServerQuestion)));
  EXPECT_THAT(again.out, Not(HasSubstr(kListQuestion)));
  EXPECT_THAT(again.out, HasSubstr("weather's list of 5 tools is approved already: a session "
                                   "here offers them to the model"));
}

TEST_F(ApproveToolsTest, AnApprovedServerIsNotAskedAboutAndANoToTheListRecordsNothing) {
  CommandOutput server = AtTerminal(Approve("weather", false), {{kServerQuestion, "y\n"}});
  ASSERT_EQ(server.status, 0) << server.out;
  const std::string approvals = Approvals();

  CommandOutput declined = AtTerminal(Approve("weather", true), {{kListQuestion, "n\n"}});
  EXPECT_EQ(declined.status, 0) << declined.out;
  EXPECT_THAT(declined.out, Not(HasSubstr(kServerQuestion)));
  EXPECT_THAT(declined.out, HasSubstr("weather's list is not approved: a session here where "
                                      "nobody can be asked offers none of its tools"));
  EXPECT_EQ(Approvals(), approvals);

  auto session = Session();
  Json started = StartWhereNobodyIsAsked(*session);
  EXPECT_EQ(started["toolsState"], "ask");
  EXPECT_EQ(started["offered"], false);
}

TEST_F(ApproveToolsTest, ANoToTheServerStartsNothingAndRecordsNothing) {
  CommandOutput declined = AtTerminal(Approve("weather", true), {{kServerQuestion, "n\n"}});
  EXPECT_EQ(declined.status, 0) << declined.out;
  EXPECT_THAT(declined.out, Not(HasSubstr(kListQuestion)));
  EXPECT_THAT(declined.out,
              HasSubstr("weather is not approved, so it was not started and its list not shown"));
  EXPECT_FALSE(std::filesystem::exists(Profile() + "/mcp-approved"));
}

TEST_F(ApproveToolsTest, ItIsRefusedOffATerminalAndInIncognito) {
  CommandOutput piped = Piped(Approve("weather", true));
  EXPECT_EQ(piped.status, 1);
  EXPECT_THAT(piped.err, HasSubstr("bravebot-mcp approve: approve --tools asks questions, and its "
                                   "standard input or output is not a terminal: run bravebot-mcp "
                                   "approve weather --tools at a terminal, in the checkout that "
                                   "asks for weather\n"));
  std::vector<std::string> incognito = Environment();
  incognito.push_back("BRAVEBOT_INCOGNITO=1");
  CommandOutput refused =
      AtTerminal(Approve("weather", true), {{kServerQuestion, "y\n"}}, incognito);
  EXPECT_EQ(refused.status, 1);
  EXPECT_THAT(refused.out, HasSubstr("an incognito session writes nothing under the profile "
                                     "directory, so nothing can be approved in one"));
  EXPECT_FALSE(std::filesystem::exists(Profile() + "/mcp-approved"));
}

TEST_F(ApproveToolsTest, AServerThisCheckoutDoesNotAskForIsRefusedNamingTheFilesRead) {
  Request({});
  CommandOutput refused = AtTerminal(Approve("weather", true), {{kServerQuestion, "y\n"}});
  EXPECT_EQ(refused.status, 1);
  EXPECT_THAT(refused.out, Not(HasSubstr(kServerQuestion)));
  EXPECT_THAT(refused.out,
              HasSubstr("bravebot-mcp approve: weather is not asked for in " + Checkout() +
                        ": none of " + Checkout() + "/.bravebot/settings.local.json, " +
                        Checkout() + "/.bravebot/settings.json and " + Profile() +
                        "/settings.json names it in mcp.request (a missing file names nothing). "
                        "Run bravebot-mcp approve weather --tools in the checkout whose settings "
                        "ask for it, or ask for it here first with bravebot-mcp enable weather"));
  EXPECT_FALSE(std::filesystem::exists(Profile() + "/mcp-approved"));
}

TEST_F(ApproveToolsTest, ASettingsFileThatCannotBeReadIsSaidRatherThanGuessedAbout) {
  std::ofstream(Checkout() + "/.bravebot/settings.json") << "{\"mcp\": ";
  CommandOutput refused = AtTerminal(Approve("weather", true), {{kServerQuestion, "y\n"}});
  EXPECT_EQ(refused.status, 1);
  EXPECT_THAT(refused.out,
              HasSubstr("bravebot-mcp approve: whether weather is asked for here is not known, so "
                        "nothing was asked: " +
                        Checkout() + "/.bravebot/settings.json is not JSON"));
  EXPECT_THAT(refused.out, Not(HasSubstr(kServerQuestion)));
}

TEST_F(ApproveToolsTest, AServerThatDidNotStartIsSaidInTheSupervisorsWords) {
  DeclareFault("broken", "crash-at-start");
  Request({"broken"});
  CommandOutput refused = AtTerminal(Approve("broken", true), {{kServerQuestion, "y\n"}});
  EXPECT_EQ(refused.status, 1) << refused.out;
  EXPECT_THAT(refused.out, HasSubstr("approved broken: digest "));
  EXPECT_THAT(refused.out, HasSubstr("bravebot-mcp approve: broken did not start: "));
  EXPECT_THAT(refused.out, Not(HasSubstr(kListQuestion)));
  // Its own words reach the terminal after its alias, as in a session.
  EXPECT_THAT(refused.out, HasSubstr("broken: giving up"));
}

TEST_F(ApproveToolsTest, ATool2AnsweredAtTheTerminalRunsWhereNobodyCanBeAsked) {
  ApproveServerAndList();
  EXPECT_EQ(CallWhereNobodyIsAsked("get_alerts")["state"], "refused");

  CommandOutput answered = AtTerminal(Approve("weather:get_alerts", false), {{kStopAsking, "y\n"}});
  EXPECT_EQ(answered.status, 0) << answered.out;
  EXPECT_THAT(answered.out, HasSubstr(std::string(kStopAsking) + Checkout() + "? [y/N]"));
  EXPECT_THAT(answered.out,
              HasSubstr("weather:get_alerts runs without the question in " + Checkout() +
                        " from now on; bravebot-mcp forget asks about it again"));
  EXPECT_EQ(ToolAnswers(),
            "# bravebot-mcp tools, format 1\nweather\tget_alerts\t" + Checkout() + "\n");

  Json ran = CallWhereNobodyIsAsked("get_alerts");
  EXPECT_EQ(ran["state"], "ran") << ran.dump();
  EXPECT_EQ(CallWhereNobodyIsAsked("echo")["state"], "refused");

  // Answered already: said, and not asked.
  CommandOutput again = AtTerminal(Approve("weather:get_alerts", false), {});
  EXPECT_EQ(again.status, 0) << again.out;
  EXPECT_THAT(again.out, Not(HasSubstr(kStopAsking)));
  EXPECT_THAT(again.out, HasSubstr("weather:get_alerts runs without the question in " + Checkout() +
                                   " already"));

  CommandOutput forget =
      RunCommand({OurProgram("bravebot-mcp"), "forget"}, Environment(), Checkout());
  EXPECT_EQ(forget.status, 0) << forget.err;
  EXPECT_EQ(forget.out,
            "weather:get_alerts is asked about again before each call in " + Checkout() + "\n");
  EXPECT_EQ(CallWhereNobodyIsAsked("get_alerts")["state"], "refused");
}

TEST_F(ApproveToolsTest, ANoToStopAskingRecordsNothing) {
  CommandOutput declined = AtTerminal(Approve("weather:get_alerts", false), {{kStopAsking, "n\n"}});
  EXPECT_EQ(declined.status, 0) << declined.out;
  EXPECT_THAT(declined.out, HasSubstr("nothing was recorded: weather:get_alerts is put to you "
                                      "before each call in " +
                                      Checkout()));
  EXPECT_FALSE(std::filesystem::exists(Profile() + "/mcp-tools"));
}

TEST_F(ApproveToolsTest, StopAskingIsRefusedOffATerminalInIncognitoAndForAServerNotAskedFor) {
  CommandOutput piped = Piped(Approve("weather:get_alerts", false));
  EXPECT_EQ(piped.status, 1);
  EXPECT_THAT(piped.err, HasSubstr("bravebot-mcp approve: approve weather:get_alerts asks a "
                                   "question, and its standard input or output is not a "
                                   "terminal: run bravebot-mcp approve weather:get_alerts at a "
                                   "terminal, in the project whose calls it answers for\n"));
  std::vector<std::string> incognito = Environment();
  incognito.push_back("BRAVEBOT_INCOGNITO=1");
  CommandOutput refused =
      AtTerminal(Approve("weather:get_alerts", false), {{kStopAsking, "y\n"}}, incognito);
  EXPECT_EQ(refused.status, 1);
  EXPECT_THAT(refused.out, HasSubstr("nothing can be approved in one"));
  Request({});
  CommandOutput elsewhere =
      AtTerminal(Approve("weather:get_alerts", false), {{kStopAsking, "y\n"}});
  EXPECT_EQ(elsewhere.status, 1);
  EXPECT_THAT(elsewhere.out, HasSubstr("weather is not asked for in " + Checkout() + ": none of "));
  EXPECT_THAT(elsewhere.out, HasSubstr("Run bravebot-mcp approve weather:get_alerts in the "
                                       "checkout whose settings ask for it"));
  EXPECT_FALSE(std::filesystem::exists(Profile() + "/mcp-tools"));
}

TEST_F(ApproveToolsTest, AToolIsNamedAfterTheColonAndTakesNoTools) {
  CommandOutput empty = Piped(Approve("weather:", false));
  EXPECT_EQ(empty.status, 2);
  EXPECT_THAT(empty.err, HasSubstr("ALIAS:TOOL names a tool after the colon"));
  CommandOutput both = Piped(Approve("weather:get_alerts", true));
  EXPECT_EQ(both.status, 2);
  EXPECT_THAT(both.err, HasSubstr("--tools takes an alias alone"));
  CommandOutput bad_alias = Piped(Approve("we ather:get_alerts", false));
  EXPECT_EQ(bad_alias.status, 2);
  EXPECT_THAT(bad_alias.err, HasSubstr("that is not an alias"));
  CommandOutput undeclared = AtTerminal(Approve("nothing:get_alerts", false), {});
  EXPECT_EQ(undeclared.status, 1);
  EXPECT_THAT(undeclared.out, HasSubstr("nothing is not declared in " + Profile() + "/mcp.json"));
  EXPECT_THAT(undeclared.out, Not(HasSubstr("Stop asking")));
}

}  // namespace
}  // namespace bravebot::testing
