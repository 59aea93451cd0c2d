// bravebot-mcp session, as a person uses it: at a pseudo-terminal, where its
// questions are read from the terminal and its calls from standard input
// (the same terminal here), and without one, with server-everything as the
// server. What each answer records is checked in the profile directory.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "integration/peers.h"
#include "integration/scripted_services.h"
#include "integration/supervisor_fixture.h"
#include "integration/terminal.h"
#include "tests/supervisor/testing/authorization_server.h"

namespace bravebot::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kEndOfInput[] = "\x04";
constexpr char kServerQuestion[] = "[1/2/3]";
constexpr char kListQuestion[] = "offer these tools to the model? [y/N]";
constexpr char kCallQuestion[] = "Proceed? [y/N]";

class SessionCommandTest : public SupervisorTest {
 protected:
  void SetUp() override {
    SupervisorTest::SetUp();
    if (!PeersInstalled()) return;
    Declare("everything", {"-e", "PATH=" + PeersDirectory() + "/bin:/usr/bin:/bin", "--",
                           "mcp-server-everything"});
    Request({"everything"});
  }

  // `bravebot-mcp session FLAGS...` at a terminal, each step typed once its
  // prompt shows.
  CommandOutput AtTerminal(const std::vector<TerminalStep>& steps,
                           std::vector<std::string> flags = {}) {
    flags.insert(flags.begin(), {OurProgram("bravebot-mcp"), "session"});
    return RunAtTerminalStepByStep(flags, Environment(), Checkout(), steps);
  }
  // The same with no terminal, `input` on its standard input.
  CommandOutput WithoutTerminal(const std::string& input, std::vector<std::string> flags = {}) {
    flags.insert(flags.begin(), {OurProgram("bravebot-mcp"), "session"});
    return RunWithoutTerminal(flags, Environment(), Checkout(), input);
  }

  // The server and its list said yes to, at a terminal.
  void ApproveServerAndList() {
    CommandOutput first = AtTerminal({{kServerQuestion, "1\n"},
                                      {kListQuestion, "y\n"},
                                      {"tools offered to the model", kEndOfInput}});
    ASSERT_EQ(first.status, 0) << first.out;
    ASSERT_THAT(first.out, HasSubstr("tools offered to the model")) << first.out;
  }

  std::string Approvals() const { return Slurp(Profile() + "/mcp-approved"); }
};

TEST_F(SessionCommandTest, AtATerminalItAsksAboutTheServerItsListAndEachCall) {
  SKIP_WITHOUT_PEERS();
  CommandOutput session =
      AtTerminal({{kServerQuestion, "1\n"},
                  {kListQuestion, "y\n"},
                  {"tools offered to the model", "everything:echo {\"message\": \"hi there\"}\n"},
                  {kCallQuestion, "y\n"},
                  {"Echo: hi there", "everything:echo {\"message\": \"not sent\"}\n"},
                  {kCallQuestion, "n\n"},
                  {"declined: ", "/status\n"},
                  {"MCP servers   everything", kEndOfInput}});
  EXPECT_EQ(session.status, 0) << session.out;
  EXPECT_THAT(session.out, HasSubstr("Confinement   "));
  EXPECT_THAT(session.out, HasSubstr("everything"));
  EXPECT_THAT(session.out, HasSubstr(kServerQuestion));
  // The list, with the server's words behind the margin, then its question.
  EXPECT_THAT(session.out, HasSubstr("everything offers "));
  EXPECT_THAT(session.out, HasSubstr("everything:echo"));
  EXPECT_THAT(session.out, HasSubstr("\xe2\x94\x83 "));
  EXPECT_THAT(session.out, HasSubstr("a plain reading of everything's list found"));
  EXPECT_THAT(session.out, HasSubstr(kListQuestion));
  // The first call proceeded, the second declined and not sent.
  EXPECT_THAT(session.out, HasSubstr(kCallQuestion));
  EXPECT_THAT(session.out, HasSubstr("everything:echo returned:"));
  EXPECT_THAT(session.out, HasSubstr("\xe2\x94\x83 Echo: hi there"));
  EXPECT_THAT(session.out, HasSubstr("declined: the user said no to this call of everything:echo"));
  EXPECT_THAT(session.out, Not(HasSubstr("Echo: not sent")));
  EXPECT_THAT(session.out, HasSubstr("MCP servers   everything"));
  EXPECT_THAT(session.out, HasSubstr("everything: "));
  // Answer 1 approved the server's digest and its list; a yes to a call
  // recorded nothing.
  EXPECT_THAT(Approvals(), HasSubstr("\nserver "));
  EXPECT_THAT(Approvals(), HasSubstr("\ntools "));
  EXPECT_THAT(Slurp(Profile() + "/mcp-tools"), Not(HasSubstr("everything\t")));

  // The next session asks about neither: the same list is pinned.
  CommandOutput again =
      AtTerminal({{"tools offered to the model", "everything:echo {\"message\": \"again\"}\n"},
                  {kCallQuestion, "y\n"},
                  {"Echo: again", kEndOfInput}});
  EXPECT_EQ(again.status, 0) << again.out;
  EXPECT_THAT(again.out, Not(HasSubstr(kServerQuestion)));
  EXPECT_THAT(again.out, Not(HasSubstr(kListQuestion)));
  EXPECT_THAT(again.out, HasSubstr("tools offered to the model"));
  EXPECT_THAT(again.out, HasSubstr("\xe2\x94\x83 Echo: again"));
}

// The spec: "a key pressed for the last question does not answer this one".
// A call line and a y written together: what was typed before the call's
// question was drawn is discarded, so the y answers nothing, and the call
// waits for the answer typed once the question shows.
TEST_F(SessionCommandTest, AYesTypedWithTheCallLineDoesNotAnswerItsQuestion) {
  SKIP_WITHOUT_PEERS();
  CommandOutput session = AtTerminal(
      {{kServerQuestion, "1\n"},
       {kListQuestion, "y\n"},
       {"tools offered to the model", "everything:echo {\"message\": \"typed ahead\"}\ny\n"},
       {kCallQuestion, "n\n"},
       {"declined: ", kEndOfInput}});
  EXPECT_EQ(session.status, 0) << session.out;
  EXPECT_THAT(session.out, HasSubstr("declined: the user said no to this call of everything:echo"));
  EXPECT_THAT(session.out, Not(HasSubstr("Echo: typed ahead")));
}

TEST_F(SessionCommandTest, ANoToTheListOffersNothingAndRecordsNothing) {
  SKIP_WITHOUT_PEERS();
  CommandOutput session =
      AtTerminal({{kServerQuestion, "1\n"},
                  {kListQuestion, "n\n"},
                  {"no tool offered, as you answered", "everything:echo {\"message\": \"x\"}\n"},
                  {"refused: ", "/status\n"},
                  {"MCP servers   everything", kEndOfInput}});
  EXPECT_EQ(session.status, 0) << session.out;
  EXPECT_THAT(session.out, HasSubstr("everything: no tool offered, as you answered"));
  EXPECT_THAT(session.out, HasSubstr("refused: "));
  EXPECT_THAT(session.out, Not(HasSubstr(kCallQuestion)));
  EXPECT_THAT(Approvals(), Not(HasSubstr("\ntools ")));
}

TEST_F(SessionCommandTest, ForgetDropsTheAnswer2ASessionRecorded) {
  SKIP_WITHOUT_PEERS();
  CommandOutput session = AtTerminal({{kServerQuestion, "2\n"},
                                      {kListQuestion, "y\n"},
                                      {"tools offered to the model", kEndOfInput}});
  EXPECT_EQ(session.status, 0) << session.out;
  EXPECT_THAT(Slurp(Profile() + "/mcp-projects"), HasSubstr(Checkout()));

  CommandOutput forget =
      RunCommand({OurProgram("bravebot-mcp"), "forget"}, Environment(), Checkout());
  EXPECT_EQ(forget.status, 0) << forget.err;
  EXPECT_THAT(forget.out,
              HasSubstr("a server you have not approved is asked about again before it starts in " +
                        Checkout()));
  EXPECT_THAT(Slurp(Profile() + "/mcp-projects"), Not(HasSubstr(Checkout())));

  // Answer 2 covered every server this checkout asks for, a declaration
  // made anew included; once forgotten, a new declaration is asked about.
  Declare("everything", {"-e", "PATH=" + PeersDirectory() + "/bin:/usr/bin:/bin", "-e",
                         "GREETING=hello", "--", "mcp-server-everything"});
  CommandOutput after = AtTerminal({{kServerQuestion, "3\n"}, {"the answer was 3", kEndOfInput}});
  EXPECT_THAT(after.out, HasSubstr(kServerQuestion));
  EXPECT_THAT(after.out, HasSubstr("everything is not used in this session: the answer was 3"));
}

TEST_F(SessionCommandTest, AOneShotRunAsksNothingEvenAtATerminal) {
  SKIP_WITHOUT_PEERS();
  // Typed ahead at once: there is no question for it to answer.
  CommandOutput left_out = AtTerminal({{"", std::string("1\n") + kEndOfInput}}, {"--one-shot"});
  EXPECT_EQ(left_out.status, 0) << left_out.out;
  EXPECT_THAT(left_out.out, Not(HasSubstr(kServerQuestion)));
  EXPECT_THAT(left_out.out,
              HasSubstr("everything was not started: a one-shot run asks nobody, so run "
                        "bravebot-mcp approve everything"));
  // The spec: "the reason is printed to stderr".
  CommandOutput piped = WithoutTerminal("", {"--one-shot"});
  EXPECT_EQ(piped.status, 0) << piped.err;
  EXPECT_THAT(piped.err, HasSubstr("everything was not started: a one-shot run asks nobody"));
  EXPECT_THAT(piped.out, Not(HasSubstr("was not started")));

  // Approved, its server starts; a call that would be put to you is refused.
  ApproveServerAndList();
  CommandOutput refused = AtTerminal(
      {{"", std::string("everything:echo {\"message\": \"hi\"}\n") + kEndOfInput}}, {"--one-shot"});
  EXPECT_EQ(refused.status, 0) << refused.out;
  EXPECT_THAT(refused.out, Not(HasSubstr(kCallQuestion)));
  EXPECT_THAT(refused.out, HasSubstr("refused: "));
  EXPECT_THAT(refused.out, Not(HasSubstr("Echo: hi")));
}

TEST_F(SessionCommandTest, WithoutATerminalNobodyIsAskedAndTheServersStderrPassesThrough) {
  SKIP_WITHOUT_PEERS();
  CommandOutput left_out = WithoutTerminal("");
  EXPECT_EQ(left_out.status, 0) << left_out.err;
  // The spec: where nobody can be asked, the reason goes to stderr.
  EXPECT_THAT(left_out.err, HasSubstr("everything was not started: "));
  EXPECT_THAT(left_out.out, Not(HasSubstr("was not started")));
  EXPECT_THAT(left_out.out, Not(HasSubstr(kServerQuestion)));

  ApproveServerAndList();
  CommandOutput session = WithoutTerminal(
      "everything:echo {\"message\": \"hi\"}\neverything:echo [\n"
      "weather:get_alerts {}\n/status\n");
  EXPECT_EQ(session.status, 0) << session.err;
  EXPECT_THAT(session.out, HasSubstr("tools offered to the model"));
  EXPECT_THAT(session.out, HasSubstr("refused: "));
  EXPECT_THAT(session.err, HasSubstr("the arguments of everything:echo are not a JSON object"));
  EXPECT_THAT(session.err,
              HasSubstr("\"weather\" is no server running in this session; what became of each "
                        "server it asked for was said as it opened"));
  EXPECT_THAT(session.out, HasSubstr("MCP servers   everything"));
  // server-everything says it is starting on its standard error, after
  // its alias, so no line of a server's passes for one of ours.
  EXPECT_THAT(session.err, HasSubstr("everything: Starting default (STDIO) server..."));
}

TEST_F(SessionCommandTest, IncognitoAndSkipPermissionsRecordNothing) {
  SKIP_WITHOUT_PEERS();
  CommandOutput incognito = AtTerminal({{kServerQuestion, "1\n"},
                                        {kListQuestion, "y\n"},
                                        {"tools offered to the model", kEndOfInput}},
                                       {"--incognito"});
  EXPECT_EQ(incognito.status, 0) << incognito.out;
  EXPECT_THAT(incognito.out, HasSubstr(kServerQuestion));
  EXPECT_THAT(incognito.out, HasSubstr("tools offered to the model"));
  EXPECT_THAT(Approvals(), Not(HasSubstr("\nserver ")));

  CommandOutput skipping =
      AtTerminal({{"", std::string("everything:echo {\"message\": \"unasked\"}\n") + kEndOfInput}},
                 {"--dangerously-skip-permissions"});
  EXPECT_EQ(skipping.status, 0) << skipping.out;
  EXPECT_THAT(skipping.out, Not(HasSubstr(kServerQuestion)));
  EXPECT_THAT(skipping.out, Not(HasSubstr(kListQuestion)));
  EXPECT_THAT(skipping.out, Not(HasSubstr(kCallQuestion)));
  EXPECT_THAT(skipping.out, HasSubstr("\xe2\x94\x83 Echo: unasked"));
  EXPECT_THAT(Approvals(), Not(HasSubstr("\nserver ")));
  EXPECT_THAT(Approvals(), Not(HasSubstr("\ntools ")));
}

TEST_F(SessionCommandTest, AListThatChangesMidSessionIsPutAgainBeforeTheNextCall) {
  // The listing server, whose tool relist changes its descriptions and says
  // its list changed; it needs no server from the npm registry.
  Declare("listing",
          {"-e", "LIST_DESCRIPTION=Does its job.", "-e", "LIST_NEXT=Does more than it did.", "--",
           OurProgram("fake_servers/listing_server")});
  Request({"listing"});
  CommandOutput session = RunAtTerminalStepByStep(
      {OurProgram("bravebot-mcp"), "session"}, Environment(), Checkout(),
      {{kServerQuestion, "1\n"},
       {kListQuestion, "y\n"},
       {"tools offered to the model", "listing:relist\n"},
       {kCallQuestion, "y\n"},
       {kListQuestion, "y\n"},
       {"tools offered to the model", "listing:echo {\"text\": \"after\"}\n"},
       {kCallQuestion, "y\n"},
       {"\xe2\x94\x83 after", kEndOfInput}});
  EXPECT_EQ(session.status, 0) << session.out;
  EXPECT_THAT(session.out, HasSubstr("listing says its list of tools changed; it was read again"));
  EXPECT_THAT(session.out, HasSubstr("This is not the list you said yes to"));
  EXPECT_THAT(session.out, HasSubstr("\xe2\x94\x83 Does more than it did."));
  EXPECT_THAT(session.out, HasSubstr("\xe2\x94\x83 after"));
  // The yes to the new list replaced the first: one tools line, holding
  // the new list, so the next session, whose server starts with the first
  // list again, says this is not the list you said yes to.
  const std::string approvals = Approvals();
  EXPECT_EQ(approvals.find("\ntools "), approvals.rfind("\ntools ")) << approvals;
  CommandOutput next = RunAtTerminalStepByStep(
      {OurProgram("bravebot-mcp"), "session"}, Environment(), Checkout(),
      {{kListQuestion, "n\n"}, {"no tool offered, as you answered", kEndOfInput}});
  EXPECT_EQ(next.status, 0) << next.out;
  EXPECT_THAT(next.out, HasSubstr("This is not the list you said yes to"));
  EXPECT_THAT(next.out, HasSubstr("\xe2\x94\x83 Does its job."));
}

TEST_F(SessionCommandTest, WhatAServerReturnsReachesNoTerminalRaw) {
  Declare("listing", {"--", OurProgram("fake_servers/listing_server")});
  Request({"listing"});
  // Its echo tool returns what it is given: a title escape, a bell, a
  // zero-width space and a right-to-left override.
  CommandOutput session =
      WithoutTerminal("listing:echo {\"text\": \"\\u001b]0;owned\\u0007 \\u200bhi\\u202e\"}\n",
                      {"--dangerously-skip-permissions"});
  EXPECT_EQ(session.status, 0) << session.err;
  EXPECT_THAT(session.out, HasSubstr("\xe2\x94\x83 \\x1b]0;owned\\x07 \\u200bhi\\u202e\n"));
  EXPECT_THAT(session.out, Not(HasSubstr("\x1b")));
  EXPECT_THAT(session.out, Not(HasSubstr("\x07")));
  EXPECT_THAT(session.out, Not(HasSubstr("\xe2\x80\x8b")));
}

TEST_F(SessionCommandTest, AReplyThatIsNotJsonIsSaidInOurWordsAndTheSessionGoesOn) {
  // Its first call is answered with `"result":GARBAGE` and a screen-clearing
  // escape, its later ones as they should be.
  Declare("garbled", {"--", OurProgram("fake_servers/fault_server"), "garbage-reply"});
  Request({"garbled"});
  CommandOutput session = RunAtTerminalStepByStep(
      {OurProgram("bravebot-mcp"), "session"}, Environment(), Checkout(),
      {{kServerQuestion, "1\n"},
       {kListQuestion, "y\n"},
       {"1 tool offered to the model", "garbled:echo {\"text\": \"first\"}\n"},
       {kCallQuestion, "y\n"},
       {"garbled:echo failed: ", "garbled:echo {\"text\": \"second\"}\n"},
       {kCallQuestion, "y\n"},
       {"\xe2\x94\x83 second", kEndOfInput}});
  EXPECT_EQ(session.status, 0) << session.out;
  EXPECT_THAT(session.out, HasSubstr("garbled:echo failed: garbled wrote a line that is not JSON"));
  EXPECT_THAT(session.out, HasSubstr("tools/call for echo"));
  EXPECT_THAT(session.out, HasSubstr("-32700"));
  EXPECT_THAT(session.out, HasSubstr("\xe2\x94\x83 second"));
  EXPECT_THAT(session.out, Not(HasSubstr("GARBAGE")));
  EXPECT_THAT(session.out, Not(HasSubstr("\x1b[2J")));
}

TEST_F(SessionCommandTest, AServiceThatMovedIsAskedAboutAtTheTerminal) {
  ScriptedHttpServer elsewhere(Handshakes(1));
  ScriptedHttpServer moving(
      {{{{Http("308 Permanent Redirect", "Location: " + elsewhere.Url("/mcp") + "\r\n", "")}}}});
  Declare("docs", {"--http", moving.Url("/mcp")});
  Request({"docs"});
  CommandOutput session =
      RunAtTerminalStepByStep({OurProgram("bravebot-mcp"), "session"}, Environment(), Checkout(),
                              {{kServerQuestion, "1\n"},
                               {"declare this server where its reply points? [y/N]", "y\n"},
                               {kListQuestion, "y\n"},
                               {"docs: 1 tool offered to the model", kEndOfInput}});
  EXPECT_EQ(session.status, 0) << session.out;
  EXPECT_THAT(session.out, HasSubstr("  and its reply points to " + elsewhere.Url("/mcp")));
  EXPECT_THAT(session.out,
              HasSubstr("docs is declared at " + elsewhere.Url("/mcp") + " from now on"));
  EXPECT_THAT(Slurp(Profile() + "/mcp.json"), HasSubstr(elsewhere.Url("/mcp")));
}

// After a yes to a move met as the session starts, the list read at the new
// place is the new declaration's: put in this session, and, where it is not
// said yes to there, in the next one again, which starts it unasked.
TEST_F(SessionCommandTest, AfterAYesToAMoveTheListIsPutAgainUntilSaidYesTo) {
  ScriptedHttpServer elsewhere(Handshakes(2));
  ScriptedHttpServer moving(
      {{{{Http("308 Permanent Redirect", "Location: " + elsewhere.Url("/mcp") + "\r\n", "")}}}});
  Declare("docs", {"--http", moving.Url("/mcp")});
  Request({"docs"});
  CommandOutput first =
      RunAtTerminalStepByStep({OurProgram("bravebot-mcp"), "session"}, Environment(), Checkout(),
                              {{kServerQuestion, "1\n"},
                               {"declare this server where its reply points? [y/N]", "y\n"},
                               {kListQuestion, "n\n"},
                               {"no tool offered, as you answered", kEndOfInput}});
  EXPECT_EQ(first.status, 0) << first.out;
  CommandOutput next =
      RunAtTerminalStepByStep({OurProgram("bravebot-mcp"), "session"}, Environment(), Checkout(),
                              {{kListQuestion, "y\n"}, {"offered to the model", kEndOfInput}});
  EXPECT_EQ(next.status, 0) << next.out;
  EXPECT_THAT(next.out, Not(HasSubstr(kServerQuestion)));
  EXPECT_THAT(next.out, HasSubstr(kListQuestion));
  EXPECT_THAT(next.out, HasSubstr("docs: 1 tool offered to the model"));
}

// Review 26, second round: a yes to a move where the service then asks for
// a sign-in is kept (the start fails, and login signs in at the new
// address); the terminal says so, not only the failure.
TEST_F(SessionCommandTest, AMoveKeptWhereTheServiceAsksForASignInIsSaidAtTheTerminal) {
  AuthorizationServer elsewhere;
  AuthorizationServer moving(
      {.service_redirect = elsewhere.ServiceUrl(), .service_redirect_status = 308});
  Declare("svc", {"--http", moving.ServiceUrl()});
  Request({"svc"});
  CommandOutput session =
      RunAtTerminalStepByStep({OurProgram("bravebot-mcp"), "session"}, Environment(), Checkout(),
                              {{kServerQuestion, "1\n"},
                               {"declare this server where its reply points? [y/N]", "y\n"},
                               {"`bravebot-mcp login svc` makes", kEndOfInput}});
  EXPECT_EQ(session.status, 0) << session.out;
  EXPECT_THAT(session.out,
              HasSubstr("svc is declared at " + elsewhere.ServiceUrl() + " from now on"));
  EXPECT_THAT(session.out, HasSubstr("svc answered POST with HTTP 401: it asks for a sign-in"));
  EXPECT_LT(session.out.find("from now on"), session.out.find("it asks for a sign-in"));
  EXPECT_THAT(Slurp(Profile() + "/mcp.json"), HasSubstr(elsewhere.ServiceUrl()));
}

}  // namespace
}  // namespace bravebot::testing
