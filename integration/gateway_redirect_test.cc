// bravebot-mcp gateway in front of a service whose answer points to another
// place (docs/services.md#redirects), driven by an agent that declares form
// elicitation: the redirect question reaches it as elicitation/create, a yes
// follows the move, and a no sends nothing there. The services are scripted
// (tests/supervisor/testing/scripted_http_server.h), so a test sees every
// request each place was sent.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "integration/gateway_fixture.h"
#include "integration/scripted_services.h"
#include "tests/supervisor/testing/scripted_http_server.h"

namespace bravebot::testing {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::SizeIs;

class GatewayRedirectTest : public GatewayTest {
 protected:
  static std::string To(const ScriptedHttpServer& service) {
    return "Location: " + service.Url("/mcp") + "\r\n";
  }
  // Every POST `service` read, its GETs and DELETEs left out.
  static std::vector<std::string> Posts(const ScriptedHttpServer& service) {
    std::vector<std::string> posts = service.requests();
    std::erase_if(posts, [](const std::string& r) { return !r.starts_with("POST "); });
    return posts;
  }
  // Where `bravebot-mcp get ALIAS` says `alias` is declared.
  std::string Declared(const std::string& alias) {
    return RunCommand({OurProgram("bravebot-mcp"), "get", alias}, Environment()).out;
  }
};

TEST_F(GatewayRedirectTest, AMoveMetAtTheStartIsAskedANoSendsNothingThereAndAYesFollowsIt) {
  SKIP_WITHOUT_GATEWAY_PEERS();
  ScriptedHttpServer elsewhere(Handshakes(1));
  // Each gateway's start is one POST here, answered with the move.
  ScriptedHttpServer moving({{{{Http("307 Temporary Redirect", To(elsewhere), "")}}},
                             {{{Http("307 Temporary Redirect", To(elsewhere), "")}}}});
  Declare("docs", {"--http", moving.Url("/mcp")});
  Request({"docs"});

  // The server question, then the redirect question: declined.
  Json refusing = Gateway({Accept("1"), Decline()});
  refusing["steps"] = Json::array({ListTools(), CallTool("bravebot_status")});
  Json refused = Agent(refusing);
  std::vector<std::string> questions = Questions(refused);
  ASSERT_THAT(questions, SizeIs(2)) << refused["elicitations"].dump(2);
  EXPECT_THAT(questions[1], AllOf(HasSubstr("docs is declared at " + moving.Url("/mcp")),
                                  HasSubstr("its reply points to " + elsewhere.Url("/mcp")),
                                  HasSubstr("declare this server where its reply points?"),
                                  Not(HasSubstr("[y/N]"))));
  EXPECT_THAT(AnswersOffered(refused, 1), ElementsAre("y", "n"));
  // Nothing reached the new place; the server is left out, and said why.
  EXPECT_THAT(Posts(elsewhere), IsEmpty());
  EXPECT_THAT(ToolNames(LastList(refused)), ElementsAre("bravebot_status"));
  EXPECT_THAT(CallText(StepsOf(refused, "callTool").at(0)),
              AllOf(HasSubstr("docs"), HasSubstr("you said no, so nothing was sent there")));
  EXPECT_THAT(Declared("docs"), HasSubstr(moving.Url("/mcp")));

  // The next gateway meets the move again (approved now, so asked only
  // that), and a yes shakes hands there and offers its list once said yes to.
  Json following = Gateway({Accept("y"), Accept("1")});
  following["steps"] = Json::array({ListTools()});
  Json followed = Agent(following);
  questions = Questions(followed);
  ASSERT_THAT(questions, SizeIs(2)) << followed["elicitations"].dump(2);
  EXPECT_THAT(questions[0], HasSubstr("its reply points to " + elsewhere.Url("/mcp")));
  EXPECT_THAT(questions[1], HasSubstr("Offer these tools to the model?"));
  EXPECT_THAT(ToolNames(LastList(followed)), Contains("docs__ping"));
  std::vector<std::string> there = Posts(elsewhere);
  ASSERT_THAT(there, SizeIs(3));
  EXPECT_THAT(there[0], HasSubstr("\"initialize\""));
  EXPECT_THAT(there[2], HasSubstr("\"tools/list\""));
  EXPECT_EQ(Posts(moving).size(), 2u);
  EXPECT_THAT(Declared("docs"), HasSubstr(elsewhere.Url("/mcp")));
}

TEST_F(GatewayRedirectTest, AMoveMetByACallIsAskedANoRefusesTheCallAndAYesRunsItThere) {
  SKIP_WITHOUT_GATEWAY_PEERS();
  // Elsewhere is another service: a yes makes the handshake there first,
  // then sends the call (request 4, after initialize, tools/list and the
  // call refused) and reads the list there (5), those two at once.
  ScriptedHttpServer elsewhere(
      {{{{Http("200 OK", "Content-Type: application/json\r\nMcp-Session-Id: s-new\r\n",
               R"({"jsonrpc":"2.0","id":-1,"result":{"protocolVersion":"2025-06-18",)"
               R"("capabilities":{},"serverInfo":{"name":"moved","version":"1"}}})")}}},
       {{{Http("202 Accepted", "", "")}}},
       {{{Http("200 OK", "Content-Type: application/json\r\n",
               R"({"jsonrpc":"2.0","id":5,"result":{"tools":[{"name":"pong","inputSchema":)"
               R"({"type":"object"}}]}})")}},
        true,
        "tools/list"},
       {{{Http("200 OK", "Content-Type: application/json\r\n",
               R"({"jsonrpc":"2.0","id":4,"result":{"content":[)"
               R"({"type":"text","text":"answered there"}]}})")}},
        true,
        "tools/call"}});
  // Here: a whole handshake, then each call answered with the move.
  std::vector<ScriptedAnswer> script = Handshakes(1);
  script.push_back({{{Http("307 Temporary Redirect", To(elsewhere), "")}}});
  script.push_back({{{Http("307 Temporary Redirect", To(elsewhere), "")}}});
  ScriptedHttpServer here(script);
  Declare("docs", {"--http", here.Url("/mcp")});
  Request({"docs"});

  Json scenario = Gateway({Accept("1"), Accept("1"),    // the server, its list
                           Accept("1"), Decline(),      // the first call, its move: no
                           Accept("1"), Accept("y")});  // the second, its move: yes
  scenario["steps"] = Json::array({ListTools(), CallTool("docs__ping"), CallTool("docs__ping")});
  Json transcript = Agent(scenario);

  std::vector<std::string> questions = Questions(transcript);
  ASSERT_THAT(questions, SizeIs(6)) << transcript["elicitations"].dump(2);
  for (int i : {3, 5}) {
    EXPECT_THAT(questions[i], AllOf(HasSubstr("docs is declared at " + here.Url("/mcp")),
                                    HasSubstr("its reply points to " + elsewhere.Url("/mcp"))));
    EXPECT_THAT(AnswersOffered(transcript, i), ElementsAre("y", "n"));
  }
  std::vector<Json> calls = StepsOf(transcript, "callTool");
  ASSERT_THAT(calls, SizeIs(2));
  // The no: the call is refused in our words, and nothing went there.
  EXPECT_TRUE(IsError(calls[0])) << calls[0].dump();
  EXPECT_THAT(CallText(calls[0]),
              HasSubstr("the user said no, so nothing was sent there. Do not retry docs:ping"));
  // The yes: the call ran there, its result as the service returned it.
  EXPECT_FALSE(IsError(calls[1])) << calls[1].dump();
  EXPECT_EQ(CallText(calls[1]), "answered there");
  std::vector<std::string> there = Posts(elsewhere);
  ASSERT_THAT(there, SizeIs(4));
  EXPECT_THAT(there[0], HasSubstr("\"initialize\""));
  std::erase_if(there,
                [](const std::string& r) { return r.find("tools/call") == std::string::npos; });
  ASSERT_THAT(there, SizeIs(1));  // the one said yes to, never the one said no to
  EXPECT_THAT(there[0], HasSubstr("\r\nMCP-Session-Id: s-new\r\n"));
  EXPECT_THAT(Declared("docs"), HasSubstr(elsewhere.Url("/mcp")));
}

}  // namespace
}  // namespace bravebot::testing
