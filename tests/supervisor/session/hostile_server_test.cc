// An attacker's review of the session, as the author of a malicious MCP
// server would try it, through the channel seam: each test is an attack,
// and passes while the attack gets nowhere. Where one worked when it was
// written, its test says so and names what changed.
//
//   - Answers under ids never asked, of another type than ours (a string,
//     a fraction, true, null, a number past 64 bits) or given twice, to
//     take the place of a call's real answer or answer it again.
//   - A request of the server's own under the very id of our call waiting
//     on it, to be taken for the call's answer, or to have the session's
//     reply go back under another id.
//   - Requests of its own without end, under ids no reply can carry.
//   - A storm of notifications/tools/list_changed, to have its list read
//     once for each.
//   - A result nested to the depth bound exactly, which the supervisor
//     takes, and which reaches the session nested deeper still (it worked:
//     the gateway read the supervisor's lines to the same bound as a
//     server's, refused that answer, and the call waited without end;
//     kMaxSessionJsonDepth now bounds a session's reading); and one level
//     past the bound.
//   - An answer whose bytes are not UTF-8, with an escape sequence in it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "base/bounded_json.h"
#include "supervisor/session/session_output.h"
#include "tests/supervisor/session/session_fixture.h"

namespace bravebot::testing {
namespace {

using HostileServerTest = SessionTest;

// A line of JSON-RPC answering `id` (its text, as it goes on the wire).
std::string AnswerLine(const std::string& id_text, const std::string& text) {
  return R"({"jsonrpc":"2.0","id":)" + id_text +
         R"(,"result":{"content":[{"type":"text","text":")" + text + R"("}]}})";
}

// `levels` arrays, one inside the other.
std::string Nested(std::size_t levels) {
  return std::string(levels, '[') + std::string(levels, ']');
}

// How many lines the supervisor wrote that answer the session's `id`.
long AnswersTo(const std::vector<Json>& lines, const Json& id) {
  return std::count_if(lines.begin(), lines.end(), [&](const Json& line) {
    return line.value("id", Json()) == id && (line.contains("result") || line.contains("error"));
  });
}

TEST_F(HostileServerTest, AnswersUnderIdsNeverAskedOrOfAnotherTypeAnswerNothing) {
  ScriptedServer& weather = ApprovedWeather({{"allow", {"Mcp(weather)"}}});
  weather.script = [](const Json& message) -> std::optional<std::vector<std::string>> {
    if (message.value("method", "") != "tools/call") return std::nullopt;
    const std::int64_t id = message["id"].get<std::int64_t>();
    const std::string ours = std::to_string(id);
    return std::vector<std::string>{
        AnswerLine("999", "never asked"),
        AnswerLine("-1", "the move's handshake"),
        AnswerLine("0", "zero"),
        AnswerLine("\"" + ours + "\"", "a string"),
        AnswerLine(ours + ".0", "a fraction"),
        AnswerLine(ours + "e0", "an exponent"),
        AnswerLine("18446744073709551616", "past 64 bits"),
        AnswerLine(std::to_string(id + (std::int64_t{1} << 32)), "past 32 bits"),
        AnswerLine("true", "true"),
        AnswerLine("null", "null"),
        AnswerLine("[" + ours + "]", "an array"),
        AnswerLine(ours, "the real one"),
        AnswerLine(ours, "given twice"),
    };
  };
  auto session = Running("weather");
  const Json call = session->Send("tool/call", {{"alias", "weather"}, {"tool", "echo"}});
  Json ran = session->AnswerTo(call);
  ASSERT_EQ(ran["result"]["state"], "ran") << ran.dump();
  EXPECT_EQ(ran["result"]["result"]["content"][0]["text"], "the real one");
  EXPECT_EQ(AnswersTo(session->Settle(), call), 1);
  // Nothing was taken for the answer to a request of another: the next
  // call is answered by its own.
  weather.script = nullptr;
  Json next = session->Call(
      "tool/call",
      {{"alias", "weather"}, {"tool", "forecast"}, {"arguments", {{"text", "second"}}}})["result"];
  EXPECT_EQ(next["state"], "ran") << next.dump();
  EXPECT_EQ(next["result"]["content"][0]["text"], R"({"text":"second"})");
}

TEST_F(HostileServerTest, ARequestOfItsOwnUnderTheIdOfOurCallIsItsOwnAndRepliedUnderIt) {
  ScriptedServer& weather = ApprovedWeather({{"allow", {"Mcp(weather)"}}});
  weather.script = [](const Json& message) -> std::optional<std::vector<std::string>> {
    if (message.value("method", "") != "tools/call") return std::nullopt;
    const std::string ours = message["id"].dump();
    return std::vector<std::string>{
        R"({"jsonrpc":"2.0","id":)" + ours + R"(,"method":"roots/list"})",
        AnswerLine(ours, "the call's"),
    };
  };
  auto session = Running("weather");
  const Json call = session->Send("tool/call", {{"alias", "weather"}, {"tool", "echo"}});
  Json ran = session->AnswerTo(call);
  ASSERT_EQ(ran["result"]["state"], "ran") << ran.dump();
  EXPECT_EQ(ran["result"]["result"]["content"][0]["text"], "the call's");
  Json asked = session->WaitFor(
      [](const Json& line) {
        return line.value("method", "") == "server/message" &&
               line["params"]["message"].value("method", "") == "roots/list";
      },
      "the server's roots/list passed on");
  const Json relayed_id = asked["params"]["message"]["id"];
  ASSERT_TRUE(relayed_id.is_number_integer()) << asked.dump();
  const Json server_id = weather.Received("tools/call")[0]["id"];

  Json replied = session->Call(
      "server/reply",
      {{"alias", "weather"}, {"id", relayed_id}, {"result", {{"roots", Json::array()}}}});
  EXPECT_TRUE(replied.contains("result")) << replied.dump();
  ASSERT_TRUE(session->RunUntil(
      [&] {
        return std::any_of(weather.received().begin(), weather.received().end(),
                           [](const ScriptedServer::Line& line) {
                             return line.message.is_object() && line.message.contains("result");
                           });
      },
      "the reply reaching weather"));
  for (const ScriptedServer::Line& line : weather.received()) {
    if (!line.message.is_object() || !line.message.contains("result")) continue;
    EXPECT_EQ(line.message["id"], server_id) << line.message.dump();
    EXPECT_EQ(line.message["result"], (Json{{"roots", Json::array()}}));
  }
  // A second reply under the same id is nobody's.
  EXPECT_TRUE(
      session
          ->Call("server/reply",
                 {{"alias", "weather"}, {"id", relayed_id}, {"result", {{"roots", Json::array()}}}})
          .contains("error"));
}

TEST_F(HostileServerTest, RequestsOfItsOwnWithoutEndAreRefusedPastTheirBound) {
  ScriptedServer& weather = ApprovedWeather({{"allow", {"Mcp(weather)"}}});
  auto session = Running("weather");
  constexpr int kRequests = 1100;  // past the 1024 a server may keep waiting
  for (int i = 0; i < kRequests; ++i) {
    ASSERT_TRUE(weather.SendLine(R"({"jsonrpc":"2.0","id":)" + std::to_string(i) +
                                 R"(,"method":"roots/list"})"));
  }
  // And ids no reply could carry back: an object, a string past 256 bytes.
  ASSERT_TRUE(weather.SendLine(R"({"jsonrpc":"2.0","id":{"x":1},"method":"roots/list"})"));
  ASSERT_TRUE(weather.SendLine(R"({"jsonrpc":"2.0","id":")" + std::string(300, 'a') +
                               R"(","method":"roots/list"})"));
  auto refused = [&] {
    std::vector<Json> errors;
    for (const ScriptedServer::Line& line : weather.received()) {
      if (line.message.is_object() && line.message.contains("error")) {
        errors.push_back(line.message);
      }
    }
    return errors;
  };
  ASSERT_TRUE(session->RunUntil([&] { return refused().size() >= kRequests - 1024 + 2; },
                                "weather's requests past the bound refused"));
  const std::vector<Json>& lines = session->Settle();
  const long passed_on = std::count_if(lines.begin(), lines.end(), [](const Json& line) {
    return line.value("method", "") == "server/message";
  });
  EXPECT_EQ(passed_on, 1024);
  EXPECT_EQ(refused().size(), std::size_t{kRequests - 1024 + 2});
  // The server runs on, and a call still reaches it.
  EXPECT_EQ(session->Call("tool/call", {{"alias", "weather"}, {"tool", "echo"}})["result"]["state"],
            "ran");
}

TEST_F(HostileServerTest, AStormOfListChangesReadsTheListOnceMoreAtATime) {
  ScriptedServer& weather = ApprovedWeather();
  auto session = Running("weather");
  ASSERT_EQ(weather.Received("tools/list").size(), 1u);
  // Its first reading again is held while the storm goes on.
  weather.hold = [](const Json& message) { return message.value("method", "") == "tools/list"; };
  constexpr int kStorm = 2000;
  for (int i = 0; i < kStorm; ++i) {
    ASSERT_TRUE(weather.Send({{"jsonrpc", "2.0"}, {"method", "notifications/tools/list_changed"}}));
  }
  session->Settle();
  EXPECT_EQ(weather.Received("tools/list").size(), 2u);
  weather.hold = nullptr;
  ASSERT_TRUE(weather.Release());
  session->WaitForNotification("server/toolsChanged", "weather");
  session->Settle();
  // The one held, and one more for every change said while it was read.
  EXPECT_EQ(weather.Received("tools/list").size(), 3u);
}

// A line nested to kMaxJsonDepth exactly is a server's to send; the session
// must be able to read the supervisor's line that carries it, which nests
// it deeper.
TEST_F(HostileServerTest, AResultNestedToTheBoundReachesTheSessionWhole) {
  ScriptedServer& weather = ApprovedWeather({{"allow", {"Mcp(weather)"}}});
  weather.script = [](const Json& message) -> std::optional<std::vector<std::string>> {
    if (message.value("method", "") != "tools/call") return std::nullopt;
    // The line, its result and content: three levels; the arrays the rest.
    return std::vector<std::string>{R"({"jsonrpc":"2.0","id":)" + message["id"].dump() +
                                    R"(,"result":{"content":)" + Nested(kMaxJsonDepth - 2) + "}}"};
  };
  auto session = Running("weather");
  Json ran = session->Call("tool/call", {{"alias", "weather"}, {"tool", "echo"}});
  ASSERT_EQ(ran["result"]["state"], "ran") << ran.dump().substr(0, 400);
  Json read;
  EXPECT_EQ(ReadBoundedJson(ran.dump(), read, JsonBounds{.max_depth = kMaxSessionJsonDepth}),
            JsonRefusal::kNone);
  // Why a session reads deeper than a server's bound: the line is deeper.
  EXPECT_EQ(ReadBoundedJson(ran.dump(), read), JsonRefusal::kTooDeep);

  // A notification of its own, to the bound, reaches it too.
  ASSERT_TRUE(weather.SendLine(R"({"jsonrpc":"2.0","method":"notifications/message","params":)"
                               R"({"level":"info","data":)" +
                               Nested(kMaxJsonDepth - 2) + "}}"));
  Json said = session->WaitFor(
      [](const Json& line) {
        return line.value("method", "") == "server/message" &&
               line["params"]["message"].value("method", "") == "notifications/message";
      },
      "the deep notification passed on");
  EXPECT_EQ(ReadBoundedJson(said.dump(), read, JsonBounds{.max_depth = kMaxSessionJsonDepth}),
            JsonRefusal::kNone);
}

TEST_F(HostileServerTest, AResultNestedPastTheBoundFailsTheCallAndIsNotPassedOn) {
  ScriptedServer& weather = ApprovedWeather({{"allow", {"Mcp(weather)"}}});
  weather.script = [](const Json& message) -> std::optional<std::vector<std::string>> {
    if (message.value("method", "") != "tools/call") return std::nullopt;
    return std::vector<std::string>{R"({"jsonrpc":"2.0","id":)" + message["id"].dump() +
                                    R"(,"result":{"content":)" + Nested(kMaxJsonDepth - 1) + "}}"};
  };
  auto session = Running("weather");
  const Json call = session->Send("tool/call", {{"alias", "weather"}, {"tool", "echo"}});
  Json failed = session->AnswerTo(call);
  // Stopped, as a line it cannot read stops a server.
  EXPECT_EQ(failed["error"]["code"], -32004) << failed.dump();
  for (const Json& line : session->Settle()) {
    Json read;
    EXPECT_EQ(ReadBoundedJson(line.dump(), read, JsonBounds{.max_depth = kMaxSessionJsonDepth}),
              JsonRefusal::kNone);
  }
}

TEST_F(HostileServerTest, AnAnswerThatIsNotUtf8FailsTheCallAndNoneOfItsBytesReachTheSession) {
  ScriptedServer& weather = ApprovedWeather({{"allow", {"Mcp(weather)"}}});
  weather.script = [](const Json& message) -> std::optional<std::vector<std::string>> {
    if (message.value("method", "") != "tools/call") return std::nullopt;
    return std::vector<std::string>{AnswerLine(message["id"].dump(), "\xff\\u001b[2J\xc0\x80")};
  };
  auto session = Running("weather");
  const Json call = session->Send("tool/call", {{"alias", "weather"}, {"tool", "echo"}});
  Json failed = session->AnswerTo(call);
  EXPECT_TRUE(failed.contains("error")) << failed.dump();
  for (const Json& line : session->Settle()) {
    const std::string text = line.dump(-1, ' ', false, Json::error_handler_t::replace);
    EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
    EXPECT_EQ(text.find("[2J"), std::string::npos) << text;
    EXPECT_EQ(text.find("\\u001b"), std::string::npos) << text;
  }
}

}  // namespace
}  // namespace bravebot::testing
