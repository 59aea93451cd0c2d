// No call through bravebot-supervisor waits for a reply that cannot come: a
// reply that is not JSON ends the requests under way to its server in our
// words, and a call past session/open's callTimeoutSeconds is cancelled at
// the server and answered in our words, its late answer dropped. Driven
// through the real supervisor, the fault_server's modes and a scripted
// service.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "integration/resident_memory.h"
#include "integration/scripted_services.h"
#include "integration/supervisor_fixture.h"

namespace bravebot::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// tool/call's params for a call of `tool` on `alias`, answered yes.
Json ToolCall(const std::string& alias, const std::string& tool, const Json& arguments) {
  return {{"alias", alias}, {"tool", tool}, {"arguments", arguments}, {"answer", "1"}};
}

// The line after `prefix` of the next server/stderr line of `alias` that
// begins with it; nothing where none came within 10 s.
std::optional<std::string> StderrAfter(SessionClient& session, const std::string& alias,
                                       const std::string& prefix) {
  auto line = session.WaitFor(
      [&](const Json& m) {
        return m["method"] == "server/stderr" && m["params"]["alias"] == alias &&
               m["params"]["line"].get<std::string>().starts_with(prefix);
      },
      In(seconds(10)));
  if (!line) return std::nullopt;
  return (*line)["params"]["line"].get<std::string>().substr(prefix.size());
}

class CallRepliesTest : public SupervisorTest {};

TEST_F(CallRepliesTest, AFloodOfLinesThatAreNoMessageCostsNeitherLogNorMemory) {
  DeclareFault("flooding", "garbage-flood", "100000");
  Request({"flooding"});
  auto session = Session();
  OpenAndApprove(*session);
  ASSERT_TRUE(StartAndOffer(*session, "flooding").contains("result"));
  Json call = session->Call("tool/call", ToolCall("flooding", "echo", {{"text", "first"}}),
                            milliseconds(30000));
  EXPECT_EQ(call["error"]["data"]["code"], -32700) << call.dump();
  // It runs on, and once its flood is over, its next call is answered as it
  // should be (a line that is no message ends whatever waits when it comes).
  session->Drain(milliseconds(3000));
  Json next = session->Call("tool/call", ToolCall("flooding", "echo", {{"text", "next"}}),
                            milliseconds(30000));
  EXPECT_EQ(next["result"]["state"], "ran") << next.dump();
  // 100,001 such lines are said in a few lines of the log, not one each.
  const std::string log = session->Log();
  size_t said = 0;
  for (size_t at = log.find("flooding wrote a line"); at != std::string::npos;
       at = log.find("flooding wrote a line", at + 1)) {
    ++said;
  }
  EXPECT_GE(said, 1u);
  EXPECT_LE(said, 40u) << "the log said each line";
#ifndef BRAVEBOT_ADDRESS_SANITIZER
  // The batch of two million was not read as two million messages.
  EXPECT_LT(PeakResidentKib(session->process().pid()), 48 * 1024);
#endif
}

TEST_F(CallRepliesTest, AReplyThatIsNotJsonIsAnsweredInOurWordsAndTheServerGoesOn) {
  DeclareFault("garbled", "garbage-reply");
  Request({"garbled"});
  auto session = Session();
  OpenAndApprove(*session);
  ASSERT_TRUE(StartAndOffer(*session, "garbled").contains("result"));

  // Its first call is answered with `"result":GARBAGE` and an escape.
  Json call = session->Call("tool/call", ToolCall("garbled", "echo", {{"text", "first"}}),
                            milliseconds(10000));
  ASSERT_TRUE(call.contains("error")) << call.dump();
  EXPECT_EQ(call["error"]["code"], -32004) << call.dump();
  EXPECT_EQ(call["error"]["data"]["tool"], "echo");
  EXPECT_EQ(call["error"]["data"]["method"], "tools/call");
  EXPECT_EQ(call["error"]["data"]["code"], -32700);
  const std::string message = call["error"]["message"].get<std::string>();
  EXPECT_THAT(message, StartsWith("garbled:echo failed: "));
  EXPECT_THAT(message, HasSubstr("tools/call"));
  EXPECT_THAT(message, HasSubstr("-32700"));
  EXPECT_THAT(call.dump(), Not(HasSubstr("GARBAGE")));
  EXPECT_THAT(call.dump(), Not(HasSubstr("[2J")));

  // A request relayed is answered so too.
  Json relayed = session->Call("server/request", {{"alias", "garbled"}, {"method", "ping"}},
                               milliseconds(10000));
  ASSERT_TRUE(relayed.contains("error")) << relayed.dump();
  EXPECT_EQ(relayed["error"]["code"], -32004);
  EXPECT_EQ(relayed["error"]["data"]["code"], -32700);
  EXPECT_THAT(relayed["error"]["message"].get<std::string>(), HasSubstr("ping"));
  EXPECT_THAT(relayed.dump(), Not(HasSubstr("GARBAGE")));

  // It runs on, and its next call works.
  Json next = session->Call("tool/call", ToolCall("garbled", "echo", {{"text", "second"}}));
  EXPECT_EQ(next["result"]["state"], "ran") << next.dump();
  EXPECT_EQ(next["result"]["result"]["content"][0]["text"], "second");
  // The supervisor's log says what happened, without the server's bytes.
  EXPECT_THAT(session->Log(), HasSubstr("garbled wrote a line that is not JSON"));
  EXPECT_THAT(session->Log(), Not(HasSubstr("GARBAGE")));
  EXPECT_THAT(session->Log(), Not(HasSubstr("\x1b")));
}

TEST_F(CallRepliesTest, AServicesAnswerThatIsNotJsonIsAnsweredInOurWordsToo) {
  std::vector<ScriptedAnswer> script = Handshakes(1);
  script.push_back({{{Http("200 OK", "Content-Type: application/json\r\n",
                           "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":GARBAGE\x1b[2J")}}});
  script.push_back({{{Http("202 Accepted", "", "")}}});  // notifications/cancelled
  script.push_back({{{Http("200 OK", "Content-Type: application/json\r\n",
                           R"({"jsonrpc":"2.0","id":4,"result":{"content":[]}})")}}});
  script.push_back({{{Http("200 OK", "", "")}}});  // the DELETE that ends its session
  ScriptedHttpServer service(script);
  Declare("docs", {"--http", service.Url("/mcp")});
  Request({"docs"});
  auto session = Session();
  OpenAndApprove(*session);
  ASSERT_TRUE(StartAndOffer(*session, "docs").contains("result")) << session->Log();

  Json call =
      session->Call("tool/call", ToolCall("docs", "ping", Json::object()), milliseconds(10000));
  EXPECT_EQ(call["error"]["code"], -32004) << call.dump();
  EXPECT_EQ(call["error"]["data"]["code"], -32700);
  EXPECT_THAT(call["error"]["message"].get<std::string>(),
              HasSubstr("docs:ping failed: docs wrote a line that is not JSON while "
                        "bravebot-mcp waited for its answer to tools/call for ping"));
  EXPECT_THAT(call.dump(), Not(HasSubstr("GARBAGE")));
  Json next = session->Call("tool/call", ToolCall("docs", "ping", Json::object()));
  EXPECT_EQ(next["result"]["state"], "ran") << next.dump() << session->Log();
  // The service was told, after the call and before the next.
  std::vector<std::string> posts = service.requests();
  std::erase_if(posts, [](const std::string& r) { return !r.starts_with("POST "); });
  ASSERT_GE(posts.size(), 5u);
  EXPECT_THAT(posts[4], HasSubstr(R"("method":"notifications/cancelled")"));
  EXPECT_THAT(posts[4], HasSubstr(R"("requestId":3)"));
}

TEST_F(CallRepliesTest, ACallPastCallTimeoutSecondsIsCancelledAtTheServerAndItsLateAnswerDropped) {
  DeclareFault("stuck", "hang-until-cancelled");
  Request({"stuck"});
  auto session = Session();
  OpenAndApprove(*session, {{"callTimeoutSeconds", 1}});
  ASSERT_TRUE(StartAndOffer(*session, "stuck").contains("result"));

  const auto sent = std::chrono::steady_clock::now();
  const int call = session->Send("tool/call", ToolCall("stuck", "echo", {{"text", "first"}}));
  std::optional<Json> answer = session->AnswerTo(call, In(seconds(10)));
  const auto waited = std::chrono::steady_clock::now() - sent;
  ASSERT_TRUE(answer) << session->Log();
  EXPECT_GE(waited, milliseconds(900));
  EXPECT_LT(waited, seconds(5));
  EXPECT_EQ((*answer)["error"]["code"], -32004) << answer->dump();
  EXPECT_EQ((*answer)["error"]["data"]["tool"], "echo");
  EXPECT_EQ((*answer)["error"]["data"]["method"], "tools/call");
  EXPECT_EQ((*answer)["error"]["data"]["code"], -32001);
  EXPECT_THAT((*answer)["error"]["message"].get<std::string>(),
              HasSubstr("stuck:echo failed: stuck gave no answer to tools/call for echo "
                        "within 1 s"));

  // The server was told, under the id it knows the call by.
  std::optional<std::string> called = StderrAfter(*session, "stuck", "call tools/call ");
  std::optional<std::string> cancelled = StderrAfter(*session, "stuck", "cancelled ");
  ASSERT_TRUE(called && cancelled) << session->Log();
  EXPECT_THAT(*cancelled, StartsWith(*called + " "));
  EXPECT_THAT(*cancelled, HasSubstr("no answer within 1 s"));

  // A request relayed too.
  Json relayed = session->Call("server/request", {{"alias", "stuck"}, {"method", "ping"}},
                               milliseconds(10000));
  EXPECT_EQ(relayed["error"]["code"], -32004) << relayed.dump();
  EXPECT_EQ(relayed["error"]["data"]["code"], -32001);
  EXPECT_THAT(relayed["error"]["message"].get<std::string>(), HasSubstr("ping within 1 s"));
  std::optional<std::string> pinged = StderrAfter(*session, "stuck", "call ping ");
  std::optional<std::string> ping_cancelled = StderrAfter(*session, "stuck", "cancelled ");
  ASSERT_TRUE(pinged && ping_cancelled) << session->Log();
  EXPECT_THAT(*ping_cancelled, StartsWith(*pinged + " "));

  // Its late answers came after the cancellations and reach nobody: the
  // next call gets its own answer, and the first call none again.
  Json next = session->Call("tool/call", ToolCall("stuck", "echo", {{"text", "second"}}));
  EXPECT_EQ(next["result"]["result"]["content"][0]["text"], "second") << next.dump();
  EXPECT_FALSE(session->AnswerTo(call, In(milliseconds(500))));
  EXPECT_TRUE(session->unmatched().empty());
}

TEST_F(CallRepliesTest, CallTimeoutSecondsIsAPositiveWholeNumber) {
  for (const Json& wrong : {Json(0), Json(-1), Json(1.5), Json("10"), Json(86401)}) {
    auto session = Session();
    Json opened =
        session->Call("session/open", {{"directory", Checkout()}, {"callTimeoutSeconds", wrong}});
    EXPECT_EQ(opened["error"]["code"], -32602) << wrong.dump();
    EXPECT_EQ(opened["error"]["message"],
              "params.callTimeoutSeconds must be a whole number from 1 to 86400");
  }
}

}  // namespace
}  // namespace bravebot::testing
