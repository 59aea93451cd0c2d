// bravebot-mcp gateway driven by an agent that declares form elicitation, as
// Claude Code and VS Code do: every question of the spec reaches it as
// elicitation/create, and what it answers decides what is offered and run.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <string>

#include "integration/gateway_fixture.h"

namespace bravebot::testing {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::SizeIs;
using ::testing::StartsWith;

class GatewayElicitationTest : public GatewayTest {};

TEST_F(GatewayElicitationTest, AsksAboutEachServerAndListThenOffersTheirToolsConfined) {
  SKIP_WITHOUT_GATEWAY_PEERS();
  DeclareEverything();
  DeclareFiles();
  Request({"everything", "files"});
  // everything: 1 (this server), files: 2 (every future server here); each list: yes.
  Json scenario = Gateway({Accept("1"), Accept("2"), Accept("1"), Accept("1")});
  const std::string secret = Home() + "/secret.txt";
  std::ofstream(secret) << "private words";
  scenario["steps"] =
      Json::array({ListTools(), CallTool("files__list_directory", {{"path", Data()}}),
                   CallTool("files__read_text_file", {{"path", secret}})});
  // Each call is asked too, and said yes to.
  scenario["elicitations"].push_back(Accept("1"));
  scenario["elicitations"].push_back(Accept("1"));
  Json transcript = Agent(scenario);

  EXPECT_EQ(transcript["initialize"]["serverInfo"]["name"], "bravebot-mcp gateway");
  EXPECT_LT(transcript["initialize"]["ms"].get<int>(), 2000);  // never waits for a server
  EXPECT_EQ(transcript["initialize"]["capabilities"]["tools"]["listChanged"], true);
  std::vector<std::string> questions = Questions(transcript);
  ASSERT_THAT(questions, SizeIs(6)) << transcript["elicitations"].dump(2);
  // The server questions, in the order of their aliases, in the spec's words.
  EXPECT_THAT(questions[0], AllOf(HasSubstr("everything"), HasSubstr("Use this MCP server?")));
  EXPECT_THAT(questions[1], AllOf(HasSubstr("files"), HasSubstr("Use this MCP server?")));
  for (int i : {0, 1}) {
    EXPECT_EQ(AnswersOffered(transcript, i), kServerAnswers);
    EXPECT_EQ(transcript["elicitations"][i]["params"]["mode"], "form");  // 2025-11-25
  }
  // Then each list, before the tools are given.
  EXPECT_THAT(questions[2],
              AllOf(HasSubstr("offers"), HasSubstr("Offer these tools to the model?")));
  EXPECT_THAT(questions[3], HasSubstr("Offer these tools to the model?"));
  EXPECT_EQ(AnswersOffered(transcript, 2), kListAnswers);
  EXPECT_THAT(questions[4], HasSubstr("files:list_directory"));

  Json list = LastList(transcript);
  std::vector<std::string> names = ToolNames(list);
  EXPECT_THAT(names, AllOf(Contains("everything__echo"), Contains("files__list_directory"),
                           Contains("everything__get-sum"), Contains("bravebot_status")));
  for (const std::string& name : names) {
    EXPECT_TRUE(std::regex_match(name, std::regex("[A-Za-z0-9_-]{1,49}"))) << name;
  }
  // Our sentence comes before the server's description.
  const std::string echo = Tool(list, "everything__echo").value("description", "");
  EXPECT_THAT(echo, HasSubstr("Echoes back the input string"));
  EXPECT_FALSE(echo.starts_with("Echoes back")) << echo;

  Json listed = StepsOf(transcript, "callTool").at(0);
  EXPECT_FALSE(IsError(listed)) << listed.dump();
  EXPECT_THAT(CallText(listed), HasSubstr("hello.txt"));
  // Confined: the home it was not given stays closed to it, whatever the model asks.
  EXPECT_THAT(CallText(StepsOf(transcript, "callTool").at(1)), Not(HasSubstr("private words")));
  // What each answer records: 1 the approval, 2 the project too.
  EXPECT_THAT(Slurp(Profile() + "/mcp-projects"), HasSubstr(Checkout()));

  // The next gateway here asks nothing: the servers and lists were said yes to.
  Json next = Gateway({});
  next["steps"] = Json::array({ListTools()});
  Json second = Agent(next);
  EXPECT_THAT(Questions(second), IsEmpty());
  EXPECT_THAT(ToolNames(LastList(second)),
              AllOf(Contains("everything__echo"), Contains("files__list_directory")));
}

// A server that never answers initialize runs out of the time
// --startup-timeout gives it, and its note names that flag.
TEST_F(GatewayElicitationTest, AStartThatRunsOutOfTimeNamesTheFlagThatGivesMore) {
  SKIP_WITHOUT_GATEWAY_PEERS();
  DeclareFault("mute", "never-answers");
  Request({"mute"});
  Json scenario = Gateway({Accept("1")}, {"--startup-timeout", "1"});
  scenario["steps"] = Json::array({ListTools(), CallTool("bravebot_status")});
  Json transcript = Agent(scenario);
  const std::string status = CallText(StepsOf(transcript, "callTool").at(0));
  EXPECT_THAT(status, HasSubstr("no answer to initialize within 1 s"));
  EXPECT_THAT(status, HasSubstr("bravebot-mcp gateway --startup-timeout SECONDS, in the client's "
                                "settings for this gateway, gives a server longer to start"));
}

TEST_F(GatewayElicitationTest, AnswerThreeADeclineAndACancelEachLeaveTheirServerOut) {
  SKIP_WITHOUT_GATEWAY_PEERS();
  DeclareListing("alpha");
  DeclareListing("beta");
  DeclareListing("gamma");
  Request({"alpha", "beta", "gamma"});
  Json scenario = Gateway({Accept("3"), Decline(), Cancel()});
  scenario["steps"] = Json::array({ListTools(), CallTool("bravebot_status")});
  Json transcript = Agent(scenario);

  EXPECT_THAT(Questions(transcript), SizeIs(3));
  EXPECT_THAT(ToolNames(LastList(transcript)), ElementsAre("bravebot_status"));
  const std::string status = CallText(StepsOf(transcript, "callTool").at(0));
  EXPECT_THAT(status, AllOf(HasSubstr("alpha"), HasSubstr("beta"), HasSubstr("gamma")));
  EXPECT_THAT(Slurp(Profile() + "/mcp-approved"), Not(HasSubstr("alpha")));

  // Nothing was recorded, so the next gateway asks again.
  Json next = Gateway({Accept("1"), Decline(), Decline(), Decline()});
  next["steps"] = Json::array({ListTools()});
  Json second = Agent(next);
  EXPECT_THAT(Questions(second), SizeIs(4));  // three servers, then alpha's list (declined)
  EXPECT_THAT(ToolNames(LastList(second)), ElementsAre("bravebot_status"));
}

TEST_F(GatewayElicitationTest, AnswerTwoRunsACallYetTheNextIsAskedSinceTheResultWasLetOut) {
  SKIP_WITHOUT_GATEWAY_PEERS();
  DeclareListing("weather");
  Request({"weather"});
  Json scenario = Gateway({Accept("1"), Accept("1"),  // the server, its list
                           Accept("2"),               // the first call: 2
                           Accept("1"),               // the same tool again: asked
                           Decline()});               // another: no
  scenario["steps"] = Json::array({ListTools(), CallTool("weather__echo", {{"text", "first"}}),
                                   CallTool("weather__echo", {{"text", "second"}}),
                                   CallTool("weather__get_alerts")});
  Json transcript = Agent(scenario);

  std::vector<std::string> questions = Questions(transcript);
  ASSERT_THAT(questions, SizeIs(5)) << transcript["elicitations"].dump(2);
  EXPECT_THAT(questions[2], HasSubstr("weather:echo"));
  EXPECT_THAT(AnswersOffered(transcript, 2), ElementsAre("1", "2", "3"));
  EXPECT_THAT(questions[3], HasSubstr("weather:echo"));
  EXPECT_THAT(questions[4], HasSubstr("weather:get_alerts"));
  std::vector<Json> calls = StepsOf(transcript, "callTool");
  ASSERT_THAT(calls, SizeIs(3));
  // A result as the server returned it.
  EXPECT_EQ(calls[0]["result"]["content"], Json::parse(R"([{"type":"text","text":"first"}])"));
  EXPECT_EQ(CallText(calls[1]), "second");
  EXPECT_TRUE(IsError(calls[2]));
  EXPECT_THAT(CallText(calls[2]),
              AllOf(HasSubstr("weather:get_alerts"), Not(HasSubstr("no alerts"))));
  EXPECT_THAT(Slurp(Profile() + "/mcp-tools"), HasSubstr("weather\techo\t"));

  // A new gateway: answer 2 runs the first call unasked; its result lets
  // the session out, so the second is asked.
  Json next = Gateway({Decline()});
  next["steps"] = Json::array({ListTools(), CallTool("weather__echo", {{"text", "unasked"}}),
                               CallTool("weather__echo", {{"text", "asked"}})});
  Json second = Agent(next);
  ASSERT_THAT(Questions(second), SizeIs(1)) << second["elicitations"].dump(2);
  EXPECT_THAT(Questions(second)[0], HasSubstr("weather:echo"));
  std::vector<Json> again = StepsOf(second, "callTool");
  EXPECT_EQ(CallText(again.at(0)), "unasked");
  EXPECT_TRUE(IsError(again.at(1)));
}

TEST_F(GatewayElicitationTest, ADenyRuleRefusesACallWithoutAsking) {
  SKIP_WITHOUT_GATEWAY_PEERS();
  DeclareListing("weather");
  RequestWithRules({"weather"}, {{"deny", {"Mcp(weather:fail)"}}});
  Json scenario = Gateway({Accept("1"), Accept("1")});
  scenario["steps"] = Json::array({ListTools(), CallTool("weather__fail")});
  Json transcript = Agent(scenario);

  EXPECT_THAT(Questions(transcript), SizeIs(2));  // the server and its list, no call
  Json refused = StepsOf(transcript, "callTool").at(0);
  EXPECT_TRUE(IsError(refused)) << refused.dump();
  EXPECT_THAT(CallText(refused), HasSubstr("a deny rule in the settings file covers weather:fail"));
  EXPECT_THAT(CallText(refused), Not(HasSubstr("SERVER WORDS")));
}

TEST_F(GatewayElicitationTest, AServerTheAdministratorRefusesIsNeitherAskedAboutNorStarted) {
  SKIP_WITHOUT_GATEWAY_PEERS();
  DeclareListing("weather");
  DeclareListing("allowed");
  Request({"allowed", "weather"});
  const std::string managed = temporary_.Join("managed.json");
  std::ofstream(managed)
      << Json{{"mcp", {{"deny", {{{"command", {OurProgram("fake_servers/listing_server")}}}}}}}}
             .dump();
  more_environment_.push_back("BRAVEBOT_MANAGED_FILE=" + managed);
  Json scenario = Gateway({});
  scenario["steps"] = Json::array({ListTools(), CallTool("bravebot_status")});
  Json transcript = Agent(scenario);

  EXPECT_THAT(Questions(transcript), IsEmpty());
  EXPECT_THAT(ToolNames(LastList(transcript)), ElementsAre("bravebot_status"));
  EXPECT_THAT(CallText(StepsOf(transcript, "callTool").at(0)),
              AllOf(HasSubstr("weather"), HasSubstr("whatever was declared or approved")));
}

TEST_F(GatewayElicitationTest, AListThatChangesIsSaidToTheAgentAndAskedAboutAgain) {
  SKIP_WITHOUT_GATEWAY_PEERS();
  DeclareListing("weather", "Tells the new weather.");
  Request({"weather"});
  Json scenario = Gateway({Accept("1"), Accept("1"), Accept("1"),  // server, list, relist call
                           Accept("1")});                          // the changed list
  scenario["steps"] = Json::array(
      {ListTools(), CallTool("weather__relist"), WaitForListChanged(15000), ListTools()});
  Json transcript = Agent(scenario);

  EXPECT_EQ(CallText(StepsOf(transcript, "callTool").at(0)), "relisted");
  EXPECT_EQ(StepsOf(transcript, "waitForListChanged").at(0)["result"]["came"], true);
  std::vector<std::string> questions = Questions(transcript);
  ASSERT_THAT(questions, SizeIs(4)) << transcript["notifications"].dump() << "\n"
                                    << transcript["steps"].dump();
  EXPECT_THAT(questions[3], HasSubstr("Offer these tools to the model?"));
  EXPECT_EQ(AnswersOffered(transcript, 3), kListAnswers);
  EXPECT_THAT(Tool(LastList(transcript), "weather__echo").value("description", ""),
              HasSubstr("Tells the new weather."));
}

TEST_F(GatewayElicitationTest, AChangedListSaidNoToIsNoLongerOffered) {
  SKIP_WITHOUT_GATEWAY_PEERS();
  DeclareListing("weather");
  Request({"weather"});
  Json scenario = Gateway({Accept("1"), Accept("1"), Accept("1"), Decline()});
  scenario["steps"] = Json::array(
      {ListTools(), CallTool("weather__relist"), WaitForListChanged(15000), ListTools()});
  Json transcript = Agent(scenario);
  EXPECT_THAT(Questions(transcript), SizeIs(4));
  EXPECT_THAT(ToolNames(StepsOf(transcript, "listTools").at(0)), Contains("weather__echo"));
  EXPECT_THAT(ToolNames(LastList(transcript)), Not(Contains("weather__echo")));
}

TEST_F(GatewayElicitationTest, AServerThatCrashesMidCallIsAFailureInOurWordsAndLeavesTheList) {
  SKIP_WITHOUT_GATEWAY_PEERS();
  DeclareFault("crashy", "crash-mid-call");
  DeclareListing("steady");
  Request({"crashy", "steady"});
  Json scenario =
      Gateway({Accept("1"), Accept("1"), Accept("1"), Accept("1"), Accept("1"), Accept("1")});
  scenario["steps"] = Json::array({ListTools(), CallTool("crashy__echo", {{"text", "hi"}}),
                                   WaitForListChanged(10000), ListTools(),
                                   CallTool("steady__echo", {{"text", "still here"}})});
  Json transcript = Agent(scenario);

  std::vector<Json> calls = StepsOf(transcript, "callTool");
  ASSERT_THAT(calls, SizeIs(2));
  EXPECT_TRUE(IsError(calls[0]) || calls[0].contains("error")) << calls[0].dump();
  EXPECT_THAT(CallText(calls[0]), AllOf(HasSubstr("crashy"), Not(HasSubstr("segfault"))));
  // Its stderr went to the gateway's, after its alias.
  EXPECT_THAT(transcript["stderr"].get<std::string>(), HasSubstr("crashy: segfault in handler"));
  EXPECT_EQ(StepsOf(transcript, "waitForListChanged").at(0)["result"]["came"], true);
  EXPECT_THAT(ToolNames(LastList(transcript)),
              AllOf(Not(Contains("crashy__echo")), Contains("steady__echo")));
  EXPECT_EQ(CallText(calls[1]), "still here");
}

TEST_F(GatewayElicitationTest, ServerRequestsAreRelayedToAnAgentThatDeclaredThem) {
  SKIP_WITHOUT_GATEWAY_PEERS();
  DeclareEverything();
  Request({"everything"});
  Json scenario = Gateway({Accept("1"), Accept("1"),        // the server, its list
                           Accept("1"), Accept("1"),        // roots, sampling
                           Accept("1"), Accept("relayed"),  // elicit, and its own question
                           Accept("1")});                   // the long operation
  scenario["capabilities"]["roots"] = Json::array({"file://" + Checkout()});
  scenario["capabilities"]["sampling"] = "sampled by the agent";
  Json long_call =
      CallTool("everything__trigger-long-running-operation", {{"duration", 1}, {"steps", 2}});
  scenario["steps"] =
      Json::array({ListTools(), CallTool("everything__get-roots-list"),
                   CallTool("everything__trigger-sampling-request", {{"prompt", "p"}}),
                   CallTool("everything__trigger-elicitation-request"), long_call});
  Json transcript = Agent(scenario);

  std::vector<Json> calls = StepsOf(transcript, "callTool");
  ASSERT_THAT(calls, SizeIs(4));
  EXPECT_THAT(CallText(calls[0]), HasSubstr("file://" + Checkout()));
  EXPECT_THAT(CallText(calls[1]), HasSubstr("sampled by the agent"));
  EXPECT_THAT(CallText(calls[2]), HasSubstr("\"answer\": \"relayed\""));
  ASSERT_THAT(transcript["samplings"], SizeIs(1));
  EXPECT_GE(transcript["rootsLists"].get<int>(), 2);  // the gateway's, then the server's
  std::vector<std::string> questions = Questions(transcript);
  ASSERT_THAT(questions, SizeIs(7)) << transcript["elicitations"].dump(2);
  EXPECT_THAT(questions[5], StartsWith("everything asks: "));
  // Progress passes through, its token mapped back to the agent's.
  EXPECT_THAT(calls[3]["progress"], Not(IsEmpty())) << calls[3].dump();
}

TEST_F(GatewayElicitationTest, ServerRequestsTheAgentDidNotDeclareAreRefused) {
  SKIP_WITHOUT_GATEWAY_PEERS();
  DeclareFault("roots", "clashing-ids");  // asks roots/list at each call
  Request({"roots"});
  Json scenario = Gateway({Accept("1"), Accept("1"), Accept("1")});
  scenario["steps"] = Json::array({ListTools(), CallTool("roots__echo", {{"text", "x"}})});
  Json transcript = Agent(scenario);
  EXPECT_EQ(CallText(StepsOf(transcript, "callTool").at(0)), "roots-error:-32601");
  EXPECT_EQ(transcript["rootsLists"], 0);
}

TEST_F(GatewayElicitationTest, AServersOwnQuestionCannotRepaintTheTerminalNorPassForOurs) {
  SKIP_WITHOUT_GATEWAY_PEERS();
  DeclareFault("hostile", "elicit-with");  // asks the client what the call's message says
  Request({"hostile"});
  Json scenario =
      Gateway({Accept("1"), Accept("1"), Accept("1"), Accept("x"), Accept("1"), Accept("1")});
  scenario["steps"] = Json::array(
      {ListTools(),
       CallTool("hostile__echo", {{"message", "\x1b[2J\x1b[H\n\n  Use this MCP server?\r"}}),
       CallTool("hostile__echo", {{"message", 5}}),
       CallTool("hostile__echo", {{"text", "after"}})});
  Json transcript = Agent(scenario);
  std::vector<std::string> questions = Questions(transcript);
  ASSERT_THAT(questions, SizeIs(6)) << transcript["elicitations"].dump(2);
  // Its words after its name, on one line, every control character shown
  // as an escape.
  EXPECT_EQ(questions[3], "hostile asks: \\x1b[2J\\x1b[H\\n\\n  Use this MCP server?\\r");
  // A message that is no string is refused to the server, and the gateway
  // goes on.
  std::vector<Json> calls = StepsOf(transcript, "callTool");
  ASSERT_THAT(calls, SizeIs(3));
  EXPECT_EQ(CallText(calls[1]), "elicit-error:-32602");
  EXPECT_FALSE(IsError(calls[2])) << calls[2].dump();
}

TEST_F(GatewayElicitationTest, WhatAnAnswerCarriesBackAsWrittenIsRefusedWhereItCouldRepaint) {
  SKIP_WITHOUT_GATEWAY_PEERS();
  DeclareFault("hostile", "elicit-with");
  Request({"hostile"});
  // The server, its list, then each of the five calls; the last answer is
  // the url's.
  Json scenario = Gateway(std::vector<Json>(8, Accept("1")));
  scenario["capabilities"]["elicitation"] = "form+url";
  auto form = [](const Json& answer) {
    return Json{{"message", "pick"},
                {"requestedSchema", {{"type", "object"}, {"properties", {{"answer", answer}}}}}};
  };
  auto url = [](const std::string& where) {
    return Json{{"mode", "url"}, {"message", "sign in"}, {"elicitationId", "e1"}, {"url", where}};
  };
  const Json choices = {{"type", "string"}, {"enum", {"a\x1b[2J", "b"}}};
  const Json preset = {{"type", "string"}, {"default", "\u202eevil"}};
  scenario["steps"] = Json::array(
      {ListTools(), CallTool("hostile__echo", {{"params", form(choices)}}),
       CallTool("hostile__echo", {{"params", form(preset)}}),
       CallTool("hostile__echo", {{"params", url("https://example.org/\x1b[2J")}}),
       CallTool("hostile__echo",
                {{"params", Json{{"message", "pick"},
                                 {"requestedSchema",
                                  {{"type", "object"},
                                   {"properties", {{"a\x1b[2J", {{"type", "string"}}}}}}}}}}),
       CallTool("hostile__echo", {{"params", url("https://example.org/sign-in")}})});
  Json transcript = Agent(scenario);
  std::vector<Json> calls = StepsOf(transcript, "callTool");
  ASSERT_THAT(calls, SizeIs(5)) << transcript.dump(2);
  // A choice, a default, a url, a field's name: each goes back to the
  // server as written, so none is escaped; the request is refused instead,
  // and the client is never asked.
  for (size_t refused = 0; refused < 4; ++refused) {
    EXPECT_EQ(CallText(calls[refused]), "elicit-error:-32602") << refused;
  }
  std::vector<std::string> questions = Questions(transcript);
  ASSERT_THAT(questions, SizeIs(8)) << transcript["elicitations"].dump(2);
  // A url that holds nothing to escape reaches the client as written.
  EXPECT_EQ(transcript["elicitations"][7]["params"]["url"], "https://example.org/sign-in");
  EXPECT_EQ(questions[7], "hostile asks: sign in");
  EXPECT_THAT(CallText(calls[4]), StartsWith("elicited:")) << calls[4].dump();
}

TEST_F(GatewayElicitationTest, ALogsDataAndLoggerCannotRepaintTheTerminal) {
  SKIP_WITHOUT_GATEWAY_PEERS();
  DeclareFault("hostile", "log-with");
  Request({"hostile"});
  Json scenario = Gateway({Accept("1"), Accept("1"), Accept("1")});
  scenario["steps"] = Json::array(
      {ListTools(),
       CallTool("hostile__echo",
                {{"logger", "db\x1b[2J"},
                 {"data", {{"note\x1b[H", {"\x1b]0;title\x07", 5}}, {"plain", "ok"}}}})});
  Json transcript = Agent(scenario);
  std::vector<Json> logs;
  for (const Json& notification : transcript["notifications"]) {
    if (notification["method"] == "notifications/message") logs.push_back(notification["params"]);
  }
  ASSERT_THAT(logs, SizeIs(1)) << transcript["notifications"].dump(2);
  EXPECT_EQ(logs[0]["logger"], "hostile/db\\x1b[2J");
  EXPECT_EQ(logs[0]["data"], (Json{{"note\\x1b[H", {"\\x1b]0;title\\x07", 5}}, {"plain", "ok"}}));
}

TEST_F(GatewayElicitationTest, TheDirectoryIsTheAgentsFirstRootOrDir) {
  SKIP_WITHOUT_GATEWAY_PEERS();
  DeclareListing("weather");
  Request({"weather"});
  const std::string elsewhere = temporary_.Join("elsewhere");
  std::filesystem::create_directories(elsewhere);
  // Started elsewhere, the agent's root names the checkout.
  Json rooted = Gateway({Accept("1"), Accept("1")});
  rooted["cwd"] = elsewhere;
  rooted["capabilities"]["roots"] = Json::array({"file://" + Checkout(), "file://" + elsewhere});
  rooted["steps"] = Json::array({ListTools()});
  EXPECT_THAT(ToolNames(LastList(Agent(rooted))), Contains("weather__echo"));
  // --dir names it, whatever the roots say.
  Json given = Gateway({}, {"--dir", Checkout()});
  given["cwd"] = elsewhere;
  given["capabilities"]["roots"] = Json::array({"file://" + elsewhere});
  given["steps"] = Json::array({ListTools()});
  EXPECT_THAT(ToolNames(LastList(Agent(given))), Contains("weather__echo"));
  // Neither: where it was started, which asks for nothing.
  Json none = Gateway({});
  none["cwd"] = elsewhere;
  none["steps"] = Json::array({ListTools()});
  EXPECT_THAT(ToolNames(LastList(Agent(none))), ElementsAre("bravebot_status"));
}

}  // namespace
}  // namespace bravebot::testing
