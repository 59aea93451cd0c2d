// The session's decisions, driven through its protocol (lines in, lines
// out; docs/supervisor-protocol.md) with scripted servers under it through
// the channel seam: no process, no socket. What the servers were sent is
// checked from their side, so a call refused is seen never to reach one.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tests/supervisor/session/session_fixture.h"

namespace bravebot::testing {
namespace {

using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// --- The server question.

TEST_F(SessionTest, AnUnapprovedServerIsAskedAboutAndAYesStartsIt) {
  ScriptedServer& weather = channels_.Script("weather");
  weather.tools = {Tool("echo", "Says it back.")};
  Program("weather");
  Request({"weather"});
  Json opened;
  auto session = Open({{"mode", "plain"}}, &opened);
  ASSERT_EQ(opened["servers"].size(), 1u) << opened.dump();
  EXPECT_EQ(opened["servers"][0]["state"], "ask");
  EXPECT_THAT(opened["servers"][0]["question"].get<std::string>(), HasSubstr("weather"));
  EXPECT_EQ(weather.opens(), 0);  // nothing runs before the answer

  EXPECT_EQ(session->Call("server/answer", {{"alias", "weather"}, {"answer", "1"}})["result"],
            (Json{{"state", "start"}}));
  Json started = session->Call("server/start", {{"alias", "weather"}})["result"];
  EXPECT_EQ(started["serverInfo"], (Json{{"name", "scripted"}, {"version", "1.0"}}));
  EXPECT_EQ(started["protocolVersion"], "2025-06-18");
  EXPECT_EQ(started["tools"], Json(weather.tools));
  EXPECT_EQ(started["toolsState"], "ask");
  EXPECT_EQ(started["offered"], false);
  EXPECT_EQ(weather.opens(), 1);
  // The handshake, then the list: what a server is sent as it starts.
  ASSERT_GE(weather.received().size(), 3u);
  EXPECT_EQ(weather.received()[0].message["method"], "initialize");
  EXPECT_EQ(weather.received()[1].message["method"], "notifications/initialized");
  EXPECT_EQ(weather.received()[2].message["method"], "tools/list");
  Json status = session->Call("session/status")["result"];
  EXPECT_EQ(status["servers"][0]["state"], "running") << status.dump();
}

TEST_F(SessionTest, AnswerThreeLeavesTheServerOutAndItIsNeverStarted) {
  ScriptedServer& weather = channels_.Script("weather");
  Program("weather");
  Request({"weather"});
  auto session = Open();
  Json left = session->Call("server/answer", {{"alias", "weather"}, {"answer", "3"}})["result"];
  EXPECT_EQ(left["state"], "left-out");
  EXPECT_EQ(left["reason"], "weather is not used in this session: the answer was 3");
  Json start = session->Call("server/start", {{"alias", "weather"}});
  EXPECT_EQ(start["error"]["code"], -32002) << start.dump();
  EXPECT_EQ(start["error"]["message"], "weather is not to be started: its state is left-out");
  EXPECT_EQ(session->Call("session/status")["result"]["servers"], Json::array());
  EXPECT_EQ(weather.opens(), 0);
  EXPECT_TRUE(weather.received().empty());
}

// --- A list that changes.

TEST_F(SessionTest, AListChangeIsReadAgainAndANewListWaitsForItsAnswer) {
  ScriptedServer& weather = ApprovedWeather();
  auto session = Open();
  Json started = session->Call("server/start", {{"alias", "weather"}})["result"];
  EXPECT_EQ(started["toolsState"], "approved");
  EXPECT_EQ(started["offered"], true);

  // Read in two pages this time, and with a tool more.
  weather.page_size = 2;
  weather.tools.push_back(Tool("alerts", "Lists alerts."));
  ASSERT_TRUE(weather.Send({{"jsonrpc", "2.0"}, {"method", "notifications/tools/list_changed"}}));
  Json changed = session->WaitForNotification("server/toolsChanged", "weather")["params"];
  EXPECT_EQ(changed["tools"], Json(weather.tools));
  EXPECT_EQ(changed["toolsState"], "changed");
  EXPECT_EQ(changed["offered"], false);
  EXPECT_THAT(changed["offer"].get<std::string>(), HasSubstr("This is not the list you said yes"));
  EXPECT_NE(changed["toolsDigest"], started["toolsDigest"]);
  EXPECT_EQ(weather.Received("tools/list").size(), 3u);  // the start's page, and two now
  // The notification itself is relayed too.
  session->WaitForNotification("server/message", "weather");
  // The new list's question waits: no tool of it is offered until a yes.
  EXPECT_EQ(session->Call("tools/offered")["result"]["tools"], Json::array());
  Json yes = session->Call(
      "tools/answer",
      {{"alias", "weather"}, {"answer", "1"}, {"toolsDigest", changed["toolsDigest"]}})["result"];
  EXPECT_EQ(yes["offered"], true);
  EXPECT_EQ(session->Call("tools/offered")["result"]["tools"].size(), 3u);
}

// --- Calls, decided each way.

TEST_F(SessionTest, AnAllowedCallRunsAndItsResultComesBackMarkedPrivate) {
  ScriptedServer& weather = ApprovedWeather({{"allow", {"Mcp(weather:echo)"}}});
  weather.call = [](const std::string& tool, const Json& arguments) -> std::optional<Json> {
    return Json{{"content", {{{"type", "text"}, {"text", tool + " " + arguments.dump()}}}}};
  };
  auto session = Running("weather");
  Json ran = session->Call(
      "tool/call",
      {{"alias", "weather"}, {"tool", "echo"}, {"arguments", {{"text", "hi"}}}})["result"];
  EXPECT_EQ(ran["state"], "ran") << ran.dump();
  EXPECT_EQ(ran["private"], true);
  EXPECT_EQ(ran["result"],
            (Json{{"content", {{{"type", "text"}, {"text", R"(echo {"text":"hi"})"}}}}}));
  std::vector<Json> calls = weather.Received("tools/call");
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0]["params"]["name"], "echo");
  EXPECT_EQ(calls[0]["params"]["arguments"], (Json{{"text", "hi"}}));
}

TEST_F(SessionTest, ARefusedCallIsAnsweredWithoutReachingTheServer) {
  ScriptedServer& weather =
      ApprovedWeather({{"deny", {"Mcp(weather:echo)"}}, {"allow", {"Mcp(weather)"}}});
  auto session = Running("weather");
  Json denied = session->Call("tool/call", {{"alias", "weather"},
                                            {"tool", "echo"},
                                            {"arguments", {{"text", "hi"}}},
                                            {"answer", "1"}})["result"];
  EXPECT_EQ(denied["state"], "refused") << denied.dump();
  EXPECT_THAT(denied["text"].get<std::string>(),
              StartsWith("refused: a deny rule in the settings file covers weather:echo."));
  // A tool its list does not name is refused too.
  Json unlisted = session->Call("tool/call", {{"alias", "weather"}, {"tool", "rm"}})["result"];
  EXPECT_EQ(unlisted["state"], "refused") << unlisted.dump();
  EXPECT_TRUE(weather.Received("tools/call").empty());
  // The allow rule still runs the tool the deny does not cover.
  EXPECT_EQ(
      session->Call("tool/call", {{"alias", "weather"}, {"tool", "forecast"}})["result"]["state"],
      "ran");
  EXPECT_EQ(weather.Received("tools/call").size(), 1u);
}

TEST_F(SessionTest, AtATerminalACallIsAskedAndRunsOnAYesAndIsDeclinedOnANo) {
  ScriptedServer& weather = ApprovedWeather();
  auto session = Running("weather", {{"mode", "plain"}});
  const Json call = {{"alias", "weather"}, {"tool", "echo"}, {"arguments", {{"text", "hi"}}}};
  Json asked = session->Call("tool/call", call)["result"];
  EXPECT_EQ(asked["state"], "ask") << asked.dump();
  EXPECT_THAT(asked["plainQuestion"].get<std::string>(), EndsWith("Proceed? [y/N]"));
  Json no = call;
  no["answer"] = "n";
  EXPECT_EQ(session->Call("tool/call", no)["result"]["state"], "declined");
  EXPECT_TRUE(weather.Received("tools/call").empty());
  Json yes = call;
  yes["answer"] = "y";
  EXPECT_EQ(session->Call("tool/call", yes)["result"]["state"], "ran");
  EXPECT_EQ(weather.Received("tools/call").size(), 1u);
}

TEST_F(SessionTest, WhereNobodyCanBeAskedACallToBeAskedIsRefusedUnsent) {
  ScriptedServer& weather = ApprovedWeather();
  auto session = Running("weather", {{"mode", "no-terminal"}});
  Json refused = session->Call("tool/call", {{"alias", "weather"}, {"tool", "echo"}})["result"];
  EXPECT_EQ(refused["state"], "refused") << refused.dump();
  EXPECT_EQ(refused["text"],
            "refused: weather:echo is put to the user before it runs and this session has nobody "
            "at a terminal. Do not retry weather:echo: say in your reply what you needed from "
            "it.");
  // An answer passed where nobody can be asked is nobody's.
  Json answered = session->Call(
      "tool/call", {{"alias", "weather"}, {"tool", "echo"}, {"answer", "1"}})["result"];
  EXPECT_EQ(answered["state"], "refused");
  EXPECT_TRUE(weather.Received("tools/call").empty());
}

// --- A service's redirect.

class SessionRedirectTest : public SessionTest {
 protected:
  // docs, approved, declared at kDeclaredAt, whose requests of `method`
  // point to kMovedTo.
  ScriptedServer& MovingDocs(const std::string& method) {
    ScriptedServer& docs = channels_.Script("docs");
    docs.tools = {Tool("search", "Searches the docs.")};
    docs.redirect_to = kMovedTo;
    docs.redirect_method = method;
    Approve(Service("docs"));
    Request({"docs"});
    return docs;
  }
};

TEST_F(SessionRedirectTest, AStartThatMeetsARedirectIsAskedAndAYesMakesTheHandshakeThere) {
  ScriptedServer& docs = MovingDocs("initialize");
  auto session = Open();
  Json asked = session->Call("server/start", {{"alias", "docs"}})["result"];
  EXPECT_EQ(asked["state"], "redirect") << asked.dump();
  EXPECT_EQ(asked["from"], kDeclaredAt);
  EXPECT_EQ(asked["to"], kMovedTo);
  EXPECT_THAT(asked["question"].get<std::string>(), EndsWith("[y/N]"));
  EXPECT_TRUE(docs.ReceivedAt(kMovedTo, "initialize").empty());  // nothing there before the yes

  Json moved = session->Call("redirect/answer", {{"alias", "docs"}, {"answer", "y"}});
  ASSERT_TRUE(moved.contains("result")) << moved.dump();
  EXPECT_EQ(moved["result"]["movedTo"], kMovedTo);
  EXPECT_EQ(moved["result"]["tools"], Json(docs.tools));
  EXPECT_EQ(docs.ReceivedAt(kMovedTo, "initialize").size(), 1u);
  EXPECT_EQ(docs.ReceivedAt(kMovedTo, "tools/list").size(), 1u);
  // Declared where it moved, and approved there.
  EXPECT_EQ(DeclaredUrl("docs"), kMovedTo);
}

TEST_F(SessionRedirectTest, ANoToAStartsRedirectFailsItAndSendsNothingThere) {
  ScriptedServer& docs = MovingDocs("initialize");
  auto session = Open();
  ASSERT_EQ(session->Call("server/start", {{"alias", "docs"}})["result"]["state"], "redirect");
  Json no = session->Call("redirect/answer", {{"alias", "docs"}, {"answer", "n"}});
  EXPECT_EQ(no["error"]["code"], -32003) << no.dump();
  EXPECT_EQ(no["error"]["data"]["step"], "unreachable");
  EXPECT_THAT(no["error"]["message"].get<std::string>(),
              HasSubstr("you said no, so nothing was sent there and it stays declared where it "
                        "was"));
  for (const ScriptedServer::Line& line : docs.received()) EXPECT_NE(line.place, kMovedTo);
  EXPECT_EQ(DeclaredUrl("docs"), kDeclaredAt);
  // No question waits any more.
  EXPECT_EQ(session->Call("redirect/answer", {{"alias", "docs"}, {"answer", "y"}})["error"]["code"],
            -32002);
}

TEST_F(SessionRedirectTest, ACallThatMeetsARedirectIsRefusedOnANoAndRunsThereOnAYes) {
  ScriptedServer& docs = MovingDocs("tools/call");
  auto session = Running("docs");
  const Json call = {{"alias", "docs"}, {"tool", "search"}, {"answer", "1"}};
  ASSERT_EQ(session->Call("tool/call", call)["result"]["state"], "redirect");
  Json refused = session->Call("redirect/answer", {{"alias", "docs"}, {"answer", "n"}})["result"];
  EXPECT_EQ(refused["state"], "refused") << refused.dump();
  EXPECT_THAT(refused["text"].get<std::string>(),
              HasSubstr("the user said no, so nothing was sent there. Do not retry docs:search"));
  for (const ScriptedServer::Line& line : docs.received()) EXPECT_NE(line.place, kMovedTo);

  ASSERT_EQ(session->Call("tool/call", call)["result"]["state"], "redirect");
  Json ran = session->Call("redirect/answer", {{"alias", "docs"}, {"answer", "y"}})["result"];
  EXPECT_EQ(ran["state"], "ran") << ran.dump();
  // The handshake made again there first, then the call.
  std::vector<ScriptedServer::Line> there;
  for (const ScriptedServer::Line& line : docs.received()) {
    if (line.place == kMovedTo) there.push_back(line);
  }
  ASSERT_GE(there.size(), 3u);
  EXPECT_EQ(there[0].message["method"], "initialize");
  EXPECT_EQ(there[1].message["method"], "notifications/initialized");
  EXPECT_EQ(there[2].message["method"], "tools/call");
  // Its list is read there, as the new declaration's.
  session->WaitForNotification("server/toolsChanged", "docs");
  EXPECT_EQ(docs.ReceivedAt(kMovedTo, "tools/list").size(), 1u);
  EXPECT_EQ(DeclaredUrl("docs"), kMovedTo);
}

// A request given up while its redirect question waits (the service wrote a
// line that is no message) is asked about no more: the answer to it is
// refused at once, never left waiting.
TEST_F(SessionRedirectTest, AQuestionWhoseCallWasGivenUpIsAskedNoMore) {
  ScriptedServer& docs = MovingDocs("tools/call");
  auto session = Running("docs");
  const Json call = {{"alias", "docs"}, {"tool", "search"}, {"answer", "1"}};
  ASSERT_EQ(session->Call("tool/call", call)["result"]["state"], "redirect");
  ASSERT_TRUE(docs.SendLine("this is no message"));
  session->Settle();
  Json answered = session->Call("redirect/answer", {{"alias", "docs"}, {"answer", "y"}});
  EXPECT_EQ(answered["error"]["code"], -32002) << answered.dump();
  for (const ScriptedServer::Line& line : docs.received()) EXPECT_NE(line.place, kMovedTo);
}

// Two questions wait: answers are taken in the order the questions were
// put, and the second is answered while the call the first let through
// still waits at the new place.
TEST_F(SessionRedirectTest, TwoQuestionsAreAnsweredInTheOrderTheyWerePut) {
  ScriptedServer& docs = MovingDocs("tools/call");
  docs.tools.push_back(Tool("fetch", "Fetches a page."));
  // Where it moved, the first call's answer is held until released.
  docs.hold = [](const Json& message) {
    return message.is_object() && message.value("method", "") == "tools/call" &&
           message["params"]["arguments"] == Json{{"text", "first"}};
  };
  auto session = Running("docs");
  Json first = session->Call("tool/call", {{"alias", "docs"},
                                           {"tool", "search"},
                                           {"arguments", {{"text", "first"}}},
                                           {"answer", "1"}})["result"];
  ASSERT_EQ(first["state"], "redirect") << first.dump();
  Json second = session->Call("tool/call", {{"alias", "docs"},
                                            {"tool", "fetch"},
                                            {"arguments", {{"text", "second"}}},
                                            {"answer", "1"}})["result"];
  ASSERT_EQ(second["state"], "redirect") << second.dump();

  const Json yes = session->Send("redirect/answer", {{"alias", "docs"}, {"answer", "y"}});
  ASSERT_TRUE(session->RunUntil([&] { return !docs.ReceivedAt(kMovedTo, "tools/call").empty(); },
                                "the first call reaching the new place"));
  Json no = session->Call("redirect/answer", {{"alias", "docs"}, {"answer", "n"}})["result"];
  EXPECT_EQ(no["state"], "refused") << no.dump();
  EXPECT_THAT(no["text"].get<std::string>(), HasSubstr("Do not retry docs:fetch"));
  ASSERT_TRUE(docs.Release());
  Json ran = session->AnswerTo(yes)["result"];
  EXPECT_EQ(ran["state"], "ran") << ran.dump();
  EXPECT_EQ(ran["result"]["content"][0]["text"], R"({"text":"first"})");
  std::vector<Json> there = docs.ReceivedAt(kMovedTo, "tools/call");
  ASSERT_EQ(there.size(), 1u);
  EXPECT_EQ(there[0]["params"]["name"], "search");
  // No question waits any more.
  EXPECT_EQ(session->Call("redirect/answer", {{"alias", "docs"}, {"answer", "y"}})["error"]["code"],
            -32002);
}

// --- A server's end, a cancel, a stop.

// Runs `session` until `server` has been sent a tools/call.
bool AwaitCall(SessionDriver& session, ScriptedServer& server) {
  return session.RunUntil([&] { return !server.Received("tools/call").empty(); },
                          server.alias() + " being sent the call");
}

TEST_F(SessionTest, AServerThatExitsMidCallFailsTheCallAndIsReportedExited) {
  ScriptedServer& weather = ApprovedWeather({{"allow", {"Mcp(weather)"}}});
  weather.call = [](const std::string&, const Json&) { return std::nullopt; };  // never answers
  auto session = Running("weather");
  const Json id = session->Send("tool/call", {{"alias", "weather"}, {"tool", "forecast"}});
  ASSERT_TRUE(AwaitCall(*session, weather));
  ASSERT_TRUE(weather.WriteStderr("out of memory"));
  ASSERT_TRUE(weather.Exit(1));

  Json failed = session->AnswerTo(id);
  EXPECT_EQ(failed["error"]["code"], -32005) << failed.dump();
  EXPECT_EQ(failed["error"]["message"],
            "weather:forecast failed: weather exited with status 1 before answering");
  EXPECT_EQ(failed["error"]["data"]["status"], 1);
  EXPECT_EQ(failed["error"]["data"]["tool"], "forecast");
  EXPECT_EQ(failed["error"]["data"]["method"], "tools/call");
  Json exited = session->WaitForNotification("server/exited", "weather")["params"];
  EXPECT_EQ(exited["status"], 1);
  EXPECT_EQ(exited["stderrTail"], (Json{"out of memory"}));
  // The call's answer comes before the end is told.
  const auto& lines = session->lines();
  auto answer_at = std::find(lines.begin(), lines.end(), failed);
  auto exited_at = std::find_if(lines.begin(), lines.end(), [](const Json& line) {
    return line.value("method", "") == "server/exited";
  });
  EXPECT_LT(answer_at, exited_at);
  Json status = session->Call("session/status")["result"]["servers"][0];
  EXPECT_EQ(status["state"], "exited") << status.dump();
  EXPECT_EQ(status["status"], 1);
  EXPECT_EQ(
      session->Call("tool/call", {{"alias", "weather"}, {"tool", "forecast"}})["error"]["code"],
      -32002);
}

TEST_F(SessionTest, ACancelledCallIsAnsweredAndTheServerToldOfIt) {
  ScriptedServer& weather = ApprovedWeather({{"allow", {"Mcp(weather)"}}});
  weather.call = [](const std::string&, const Json&) { return std::nullopt; };
  auto session = Running("weather");
  const Json call = session->Send("tool/call", {{"alias", "weather"}, {"tool", "forecast"}});
  ASSERT_TRUE(AwaitCall(*session, weather));
  const Json cancel = session->Send("request/cancel", {{"id", call}});
  Json cancelled = session->AnswerTo(call);
  EXPECT_EQ(cancelled["error"]["code"], -32800) << cancelled.dump();
  EXPECT_EQ(cancelled["error"]["message"], "cancelled by the session");
  EXPECT_EQ(session->AnswerTo(cancel)["result"], Json::object());
  ASSERT_TRUE(
      session->RunUntil([&] { return !weather.Received("notifications/cancelled").empty(); },
                        "weather being told its call was cancelled"));
  Json told = weather.Received("notifications/cancelled")[0]["params"];
  EXPECT_EQ(told["requestId"], weather.Received("tools/call")[0]["id"]);
  EXPECT_EQ(told["reason"], "cancelled by the session");
  // Answered once: a second cancel names nothing waiting.
  EXPECT_EQ(session->Call("request/cancel", {{"id", call}})["error"]["code"], -32602);
}

TEST_F(SessionTest, AStoppedServerAnswersWhatWaitsOnItAndIsNotReportedExited) {
  ScriptedServer& weather = ApprovedWeather({{"allow", {"Mcp(weather)"}}});
  weather.call = [](const std::string&, const Json&) { return std::nullopt; };
  weather.stop_status = 143;  // it did not end as its input closed
  auto session = Running("weather");
  const Json call = session->Send("tool/call", {{"alias", "weather"}, {"tool", "forecast"}});
  ASSERT_TRUE(AwaitCall(*session, weather));
  const Json stop = session->Send("server/stop", {{"alias", "weather"}});
  Json gone = session->AnswerTo(call);
  EXPECT_EQ(gone["error"]["code"], -32005) << gone.dump();
  EXPECT_EQ(gone["error"]["message"],
            "weather:forecast failed: weather was stopped by the session");
  EXPECT_EQ(gone["error"]["data"]["status"], nullptr);
  EXPECT_EQ(session->AnswerTo(stop)["result"], (Json{{"status", 143}}));
  EXPECT_TRUE(weather.ended());
  Json status = session->Call("session/status")["result"]["servers"][0];
  EXPECT_EQ(status["state"], "stopped") << status.dump();
  EXPECT_EQ(status["status"], 143);
  for (const Json& line : session->Settle()) {
    EXPECT_NE(line.value("method", ""), "server/exited") << line.dump();
  }
  // Stopped again: answered at once with the same status.
  EXPECT_EQ(session->Call("server/stop", {{"alias", "weather"}})["result"],
            (Json{{"status", 143}}));
}

// A stop while the start waits for the server's answer to initialize: the
// start is answered once, as stopped, the stop with the server's end, and
// nothing more is sent to it.
TEST_F(SessionTest, AStopWhileTheStartWaitsEndsItOnceAndNothingHangs) {
  ScriptedServer& weather = ApprovedWeather();
  weather.hold = [](const Json& message) {
    return message.is_object() && message.value("method", "") == "initialize";
  };
  auto session = Open();
  const Json start = session->Send("server/start", {{"alias", "weather"}});
  ASSERT_TRUE(session->RunUntil([&] { return !weather.Received("initialize").empty(); },
                                "weather being sent initialize"));
  const Json stop = session->Send("server/stop", {{"alias", "weather"}});
  Json stopped = session->AnswerTo(start);
  EXPECT_EQ(stopped["error"]["code"], -32005) << stopped.dump();
  EXPECT_EQ(stopped["error"]["message"], "weather was stopped by the session before it answered");
  EXPECT_EQ(session->AnswerTo(stop)["result"], (Json{{"status", 0}}));
  EXPECT_TRUE(weather.ended());
  const std::vector<Json>& lines = session->Settle();
  EXPECT_EQ(std::count_if(lines.begin(), lines.end(),
                          [&](const Json& line) { return line.value("id", Json()) == start; }),
            1);
  // Nor is anything answered that nobody asked: a start taken for done.
  for (const Json& line : lines) {
    if (line.contains("result") || line.contains("error")) {
      EXPECT_FALSE(line["id"].is_null()) << line.dump();
    }
  }
  EXPECT_EQ(weather.received().size(), 1u);  // initialize, and nothing after
  Json status = session->Call("session/status")["result"]["servers"][0];
  EXPECT_EQ(status["state"], "stopped") << status.dump();
}

}  // namespace
}  // namespace bravebot::testing
