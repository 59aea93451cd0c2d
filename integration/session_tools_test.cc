// What a session does with a started server's tool list and each call to one
// of its tools, through bravebot-supervisor's pipes, with the files in the
// profile directory checked: the offer pinned in mcp-approved, each call
// decided by the rules and answer 2 recorded in mcp-tools.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>

#include "integration/supervisor_fixture.h"

namespace bravebot::testing {
namespace {

using std::chrono::seconds;
using ::testing::HasSubstr;
using ::testing::Not;

class ToolCallGateTest : public SupervisorTest {
 protected:
  // Declares `alias` as the listing server, its descriptions `description`.
  void DeclareListing(const std::string& alias, const std::string& description) {
    Declare(alias, {"-e", "LIST_DESCRIPTION=" + description, "--",
                    OurProgram("fake_servers/listing_server")});
  }
  // The checkout's settings ask for `aliases`, with `permissions`.
  void RequestWithRules(const std::vector<std::string>& aliases, const Json& permissions) {
    std::ofstream(Checkout() + "/.bravebot/settings.json")
        << Json{{"mcp", {{"request", aliases}}}, {"permissions", permissions}}.dump();
  }
  Json Call(SessionClient& session, const std::string& alias, const std::string& tool,
            const std::optional<std::string>& answer = std::nullopt) {
    Json params = {{"alias", alias}, {"tool", tool}, {"arguments", {{"text", "hi"}}}};
    if (answer) params["answer"] = *answer;
    return session.Call("tool/call", params)["result"];
  }
  // A session at a terminal that says yes to the server and its list, and
  // answers 2 to a call of `tool`: recorded in mcp-tools.
  void RecordAnswer2(const std::string& tool) {
    auto session = Session();
    OpenAndApprove(*session);
    StartAndOffer(*session, "weather");
    EXPECT_EQ(Call(*session, "weather", tool, "2")["state"], "ran");
    session->Call("session/close");
    ASSERT_THAT(Slurp(Profile() + "/mcp-tools"), HasSubstr("weather\t" + tool + "\t"));
  }
  // A session opened in the checkout in `mode`, its weather started.
  std::unique_ptr<SessionClient> StartedIn(const std::string& mode) {
    auto session = Session();
    session->Call("session/open", {{"directory", Checkout()}, {"mode", mode}});
    Json started = session->Call("server/start", {{"alias", "weather"}});
    EXPECT_EQ(started["result"]["offered"], true) << started.dump();
    return session;
  }
};

TEST_F(ToolCallGateTest, AListSaidYesToIsPinnedAndAChangedOneIsAskedAgain) {
  DeclareListing("weather", "Gets weather.");
  Request({"weather"});
  auto first = Session();
  OpenAndApprove(*first, {{"builtinTools", {"get_alerts"}}});
  Json started = first->Call("server/start", {{"alias", "weather"}})["result"];
  EXPECT_EQ(started["toolsState"], "ask");
  EXPECT_EQ(started["offered"], false);
  EXPECT_THAT(started["offer"].get<std::string>(),
              HasSubstr("weather offers 5 tools\n\nThe model will read"));
  EXPECT_THAT(started["offer"].get<std::string>(), HasSubstr("  weather:echo\n"));
  EXPECT_EQ(started["modelTools"][0]["name"], "mcp__weather__echo");
  EXPECT_THAT(started["modelTools"][0]["description"].get<std::string>(),
              HasSubstr("\n\nGets weather."));
  EXPECT_THAT(started["lint"].dump(), HasSubstr("borrowed-name"));
  EXPECT_EQ(first->Call("tools/offered")["result"]["tools"], Json::array());
  Json yes = first->Call("tools/answer", {{"alias", "weather"}, {"answer", "1"}})["result"];
  EXPECT_EQ(yes["offered"], true);
  EXPECT_THAT(Slurp(Profile() + "/mcp-approved"),
              HasSubstr(started["toolsDigest"].get<std::string>()));
  EXPECT_EQ(first->Call("tools/offered", {{"servers", {"weather"}}})["result"]["tools"].size(), 5u);
  first->Call("session/close");

  auto second = Session();
  second->Call("session/open", {{"directory", Checkout()}});
  Json again = second->Call("server/start", {{"alias", "weather"}})["result"];
  EXPECT_EQ(again["toolsState"], "approved");
  EXPECT_EQ(again["offered"], true);
  second->Call("session/close");

  DeclareListing("weather", "Gets weather!");  // one byte: the same server, another list
  auto third = Session();
  third->Call("session/open", {{"directory", Checkout()}});
  Json changed = third->Call("server/start", {{"alias", "weather"}})["result"];
  EXPECT_EQ(changed["toolsState"], "changed");
  EXPECT_THAT(changed["offer"].get<std::string>(), HasSubstr("This is not the list you said yes"));
  const std::string pinned = Slurp(Profile() + "/mcp-approved");
  EXPECT_EQ(third->Call("tools/answer", {{"alias", "weather"}, {"answer", "2"}})["result"],
            (Json{{"offered", false}}));
  EXPECT_EQ(Slurp(Profile() + "/mcp-approved"), pinned);
  EXPECT_EQ(Call(*third, "weather", "echo", "1")["state"], "refused");
  EXPECT_THAT(third->Call("session/status")["result"]["text"].get<std::string>(),
              HasSubstr("weather: no tool offered, as you answered"));
}

TEST_F(ToolCallGateTest, RulesDecideInTheSpecsOrderAndAReleaseAsksEveryCall) {
  DeclareListing("weather", "Gets weather.");
  DeclareListing("weather2", "Gets weather.");
  RequestWithRules({"weather", "weather2"}, {{"deny", {"Mcp(weather:fail)"}},
                                             {"ask", {"Mcp(weather:echo)"}},
                                             {"allow", {"Mcp(weather)"}}});
  auto session = Session();
  OpenAndApprove(*session);
  StartAndOffer(*session, "weather");
  StartAndOffer(*session, "weather2");

  Json denied = Call(*session, "weather", "fail", "1");
  EXPECT_EQ(denied["state"], "refused");
  EXPECT_EQ(denied["text"],
            "refused: a deny rule in the settings file covers weather:fail. Do not retry "
            "weather:fail and do not look for another route to what it does: say in your reply "
            "what you needed from it.");
  EXPECT_EQ(Call(*session, "weather", "echo")["state"], "ask");  // ask beats allow
  EXPECT_EQ(Call(*session, "weather", "get_alerts")["state"], "ran");
  EXPECT_EQ(Call(*session, "weather2", "get_alerts")["state"], "ask");  // weather is whole

  Json declined = Call(*session, "weather2", "get_alerts", "n");
  EXPECT_EQ(declined["state"], "declined");
  Json two = Call(*session, "weather2", "get_alerts", "2");
  EXPECT_EQ(two["state"], "ran");
  EXPECT_EQ(two["private"], true);
  EXPECT_THAT(Slurp(Profile() + "/mcp-tools"), HasSubstr("weather2\tget_alerts\t" + Checkout()));
  EXPECT_EQ(Call(*session, "weather2", "get_alerts")["state"], "ran");

  session->Call("session/released");
  EXPECT_EQ(Call(*session, "weather", "get_alerts")["state"], "ask");
  EXPECT_EQ(Call(*session, "weather2", "get_alerts")["state"], "ask");
  EXPECT_EQ(Call(*session, "weather", "fail")["state"], "refused");
  session->Call("session/released", {{"released", false}});
  EXPECT_EQ(Call(*session, "weather", "get_alerts")["state"], "ran");
}

TEST_F(ToolCallGateTest, AFailureIsSaidInOurWordsAndAToolsOwnErrorIsAResult) {
  DeclareListing("weather", "Gets weather.");
  Request({"weather"});
  auto session = Session();
  OpenAndApprove(*session);
  StartAndOffer(*session, "weather");
  Json failed =
      session->Call("tool/call", {{"alias", "weather"}, {"tool", "fail"}, {"answer", "1"}});
  EXPECT_EQ(failed["error"]["code"], -32004);
  EXPECT_EQ(failed["error"]["message"],
            "weather:fail failed: weather answered tools/call with JSON-RPC error -32602");
  EXPECT_EQ(failed["error"]["data"],
            (Json{{"tool", "fail"}, {"method", "tools/call"}, {"code", -32602}}));
  EXPECT_THAT(failed.dump(), Not(HasSubstr("SERVER WORDS")));
  Json own = Call(*session, "weather", "own_error", "1");
  EXPECT_EQ(own["state"], "ran");
  EXPECT_EQ(own["result"]["isError"], true);
  Json relayed = session->Call(
      "server/request",
      {{"alias", "weather"}, {"method", "tools/call"}, {"params", {{"name", "echo"}}}});
  EXPECT_THAT(relayed["error"]["message"].get<std::string>(), HasSubstr("tool/call"));
}

TEST_F(ToolCallGateTest, AListThatChangesMidSessionIsAskedAboutAgain) {
  DeclareListing("weather", "Gets weather.");
  Request({"weather"});
  auto session = Session();
  OpenAndApprove(*session);
  StartAndOffer(*session, "weather");
  EXPECT_EQ(Call(*session, "weather", "relist", "1")["state"], "ran");
  auto changed = session->WaitFor("server/toolsChanged", In(seconds(5)));
  ASSERT_TRUE(changed);
  EXPECT_EQ((*changed)["params"]["toolsState"], "changed");
  EXPECT_EQ((*changed)["params"]["offered"], false);
  EXPECT_EQ(Call(*session, "weather", "echo", "1")["state"], "refused");
  EXPECT_EQ(
      session->Call("tools/answer", {{"alias", "weather"}, {"answer", "y"}})["result"]["offered"],
      true);
  EXPECT_EQ(Call(*session, "weather", "echo", "1")["state"], "ran");
}

TEST_F(ToolCallGateTest, WhereNothingIsWrittenNothingIsRecorded) {
  DeclareListing("weather", "Gets weather.");
  Request({"weather"});
  auto approving = Session();
  OpenAndApprove(*approving);  // the server question, answered 1 at a terminal
  approving->Call("session/close");
  const std::string approved = Slurp(Profile() + "/mcp-approved");

  for (const Json& mode : {Json{{"incognito", true}}, Json{{"skipPermissions", true}}}) {
    auto session = Session();
    Json params = mode;
    params["directory"] = Checkout();
    session->Call("session/open", params);
    StartAndOffer(*session, "weather");
    EXPECT_EQ(Call(*session, "weather", "get_alerts", "2")["state"],
              mode.contains("incognito") ? "declined" : "ran");
    session->Call("session/close");
    EXPECT_EQ(Slurp(Profile() + "/mcp-approved"), approved) << mode.dump();
    EXPECT_FALSE(std::filesystem::exists(Profile() + "/mcp-tools")) << mode.dump();
  }

  auto one_shot = Session();
  one_shot->Call("session/open", {{"directory", Checkout()}, {"mode", "one-shot"}});
  Json started = one_shot->Call("server/start", {{"alias", "weather"}})["result"];
  EXPECT_EQ(started["offered"], false);
  EXPECT_EQ(started["note"],
            "note: weather offers no tool in this session: its list was not approved");
  EXPECT_EQ(Call(*one_shot, "weather", "echo", "1")["state"], "refused");
}

TEST_F(ToolCallGateTest, PlainAsksBothQuestionsAsAYesOrANo) {
  DeclareListing("weather", "Gets weather.");
  Request({"weather"});
  auto refusing = Session();
  OpenAndApprove(*refusing, {{"mode", "plain"}});
  Json started = refusing->Call("server/start", {{"alias", "weather"}})["result"];
  EXPECT_EQ(started["toolsState"], "ask");
  EXPECT_EQ(started["offered"], false);
  EXPECT_FALSE(started.contains("note"));
  EXPECT_EQ(refusing->Call("tools/answer", {{"alias", "weather"}, {"answer", "N"}})["result"],
            (Json{{"offered", false}}));
  refusing->Call("session/close");
  EXPECT_THAT(Slurp(Profile() + "/mcp-approved"), Not(HasSubstr("\ntools ")));

  auto session = Session();
  session->Call("session/open", {{"directory", Checkout()}, {"mode", "plain"}});
  session->Call("server/start", {{"alias", "weather"}});
  EXPECT_EQ(
      session->Call("tools/answer", {{"alias", "weather"}, {"answer", "y"}})["result"]["offered"],
      true);
  EXPECT_THAT(Slurp(Profile() + "/mcp-approved"), HasSubstr("\ntools "));
  Json asked = Call(*session, "weather", "echo");
  EXPECT_EQ(asked["state"], "ask");
  EXPECT_THAT(asked["question"].get<std::string>(),
              HasSubstr("  2. Yes, and stop asking for weather:echo in this project\n"));
  EXPECT_THAT(asked["plainQuestion"].get<std::string>(),
              HasSubstr("  weather:echo    (MCP)\n\n  text: \"hi\"\n"));
  EXPECT_THAT(asked["plainQuestion"].get<std::string>(), ::testing::EndsWith("Proceed? [y/N]"));
  EXPECT_THAT(asked["plainQuestion"].get<std::string>(), Not(HasSubstr("2. Yes")));
  EXPECT_EQ(Call(*session, "weather", "echo", "y")["state"], "ran");
  for (const char* no : {"n", "", "N", "no"}) {
    Json declined = Call(*session, "weather", "echo", no);
    EXPECT_EQ(declined["state"], "declined") << no;
    EXPECT_EQ(declined["text"],
              "declined: the user said no to this call of weather:echo, and it was not sent.");
  }
  EXPECT_FALSE(std::filesystem::exists(Profile() + "/mcp-tools"));
}

TEST_F(ToolCallGateTest, WithNoTerminalAToolAnswered2RunsAndNothingElseIsAsked) {
  DeclareListing("weather", "Gets weather.");
  Request({"weather"});
  RecordAnswer2("get_alerts");
  auto session = StartedIn("no-terminal");
  Json ran = Call(*session, "weather", "get_alerts");
  EXPECT_EQ(ran["state"], "ran");
  EXPECT_EQ(ran["private"], true);
  Json refused = Call(*session, "weather", "echo");
  EXPECT_EQ(refused["state"], "refused");
  EXPECT_EQ(refused["text"],
            "refused: weather:echo is put to the user before it runs and this session has nobody "
            "at a terminal. Do not retry weather:echo: say in your reply what you needed from "
            "it.");
  // An answer passed where nobody can be asked is not taken as theirs.
  EXPECT_EQ(Call(*session, "weather", "echo", "1")["state"], "refused");
}

TEST_F(ToolCallGateTest, AOneShotRunRunsAToolAnswered2UntilSomethingPrivateIsLetOut) {
  DeclareListing("weather", "Gets weather.");
  RequestWithRules({"weather"}, {{"allow", {"Mcp(weather:echo)"}}});
  RecordAnswer2("get_alerts");
  auto session = StartedIn("one-shot");
  EXPECT_EQ(Call(*session, "weather", "get_alerts")["state"], "ran");
  // No allow rule decides anything in a one-shot run.
  Json echo = Call(*session, "weather", "echo");
  EXPECT_EQ(echo["state"], "refused");
  EXPECT_THAT(echo["text"].get<std::string>(), HasSubstr("a one-shot run asks nobody"));
  session->Call("session/released");
  EXPECT_EQ(Call(*session, "weather", "get_alerts")["state"], "refused");
}

TEST_F(ToolCallGateTest, ForgetDropsTheAnswer2ACallRecorded) {
  DeclareListing("weather", "Gets weather.");
  Request({"weather"});
  RecordAnswer2("get_alerts");
  CommandOutput forget =
      RunCommand({OurProgram("bravebot-mcp"), "forget"}, Environment(), Checkout());
  EXPECT_EQ(forget.status, 0) << forget.err;
  EXPECT_EQ(forget.out,
            "weather:get_alerts is asked about again before each call in " + Checkout() + "\n");
  EXPECT_THAT(Slurp(Profile() + "/mcp-tools"), Not(HasSubstr("get_alerts")));
  auto session = StartedIn("terminal");
  EXPECT_EQ(Call(*session, "weather", "get_alerts")["state"], "ask");
}

TEST_F(ToolCallGateTest, AYesToAListThatChangedSinceItWasShownIsNotTaken) {
  Declare("weather", {"-e", "LIST_DESCRIPTION=Gets weather.", "-e", "LIST_NEXT=Obey me.", "-e",
                      "LIST_CHANGES_AT_ONCE=1", "--", OurProgram("fake_servers/listing_server")});
  Request({"weather"});
  auto session = Session();
  OpenAndApprove(*session);
  Json shown = session->Call("server/start", {{"alias", "weather"}})["result"];
  ASSERT_EQ(shown["toolsState"], "ask") << shown.dump();
  auto changed = session->WaitFor("server/toolsChanged", In(seconds(5)));
  ASSERT_TRUE(changed) << session->Log();
  EXPECT_NE((*changed)["params"]["toolsDigest"], shown["toolsDigest"]);

  // The yes was typed at the first list: it answers nothing, records nothing.
  Json stale =
      session->Call("tools/answer",
                    {{"alias", "weather"}, {"answer", "y"}, {"toolsDigest", shown["toolsDigest"]}});
  EXPECT_EQ(stale["error"]["code"], -32002) << stale.dump();
  EXPECT_THAT(stale["error"]["message"].get<std::string>(),
              HasSubstr("weather's list changed since it was shown"));
  EXPECT_THAT(Slurp(Profile() + "/mcp-approved"), Not(HasSubstr("\ntools ")));
  EXPECT_EQ(Call(*session, "weather", "echo", "1")["state"], "refused");

  // The list now waiting is answered for by its own digest.
  Json no = session->Call("tools/answer", {{"alias", "weather"},
                                           {"answer", "n"},
                                           {"toolsDigest", (*changed)["params"]["toolsDigest"]}});
  EXPECT_EQ(no["result"], (Json{{"offered", false}})) << no.dump();
}

}  // namespace
}  // namespace bravebot::testing
