// bravebot-supervisor driven through its pipes as a session drives it: opening
// a session, its questions and answers, starting servers, relaying, stopping,
// and what it does with servers that fail in every way a server can.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <thread>

#include "integration/peers.h"
#include "integration/process_scan.h"
#include "integration/resident_memory.h"
#include "integration/supervisor_fixture.h"

namespace bravebot::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

// tool/call's params for a call of `tool` on `alias`, answered yes.
Json ToolCall(const std::string& alias, const std::string& tool,
              const Json& arguments = Json::object()) {
  return {{"alias", alias}, {"tool", tool}, {"arguments", arguments}, {"answer", "1"}};
}

Json StateOf(const Json& opened, const std::string& alias) {
  for (const Json& server : opened["result"]["servers"]) {
    if (server["alias"] == alias) return server;
  }
  return Json();
}

TEST_F(SupervisorTest, AnswersAskedQuestionsStartsCallsAndCloses) {
  DeclareFault("fault", "stderr-lines", "2");
  Request({"fault"});
  auto session = Session();
  Json opened = session->Call("session/open", {{"directory", Checkout()}});
  const Json fault = StateOf(opened, "fault");
  EXPECT_EQ(fault["state"], "ask");
  EXPECT_EQ(fault["transport"], "stdio");
  EXPECT_EQ(fault["requestedBy"], Json::array({Checkout() + "/.bravebot/settings.json"}));
  EXPECT_THAT(fault["question"].get<std::string>(),
              HasSubstr("  Use this MCP server?\n  1. Yes\n  2. Yes, and use all future MCP "
                        "servers in this project\n  3. No, continue without this server\n"
                        "  [1/2/3]"));
  EXPECT_EQ(opened["result"]["confinement"]["line"], "kernel-enforced");

  // Before its question is answered it is not started.
  Json early = session->Call("server/start", {{"alias", "fault"}});
  EXPECT_EQ(early["error"]["code"], -32002);
  EXPECT_THAT(early["error"]["message"].get<std::string>(), HasSubstr("answer its question"));

  Json answered = session->Call("server/answer", {{"alias", "fault"}, {"answer", "1"}});
  EXPECT_EQ(answered["result"]["state"], "start");
  Json started = session->Call("server/start", {{"alias", "fault"}});
  ASSERT_TRUE(started.contains("result")) << started.dump();
  EXPECT_EQ(started["result"]["serverInfo"]["name"], "fake");
  EXPECT_EQ(started["result"]["tools"][0]["name"], "echo");
  EXPECT_EQ(started["result"]["toolsState"], "ask");
  EXPECT_EQ(started["result"]["offered"], false);
  EXPECT_THAT(started["result"]["offer"].get<std::string>(), HasSubstr("fault:echo"));
  // Until its list is offered, none of its tools is called.
  Json unoffered = session->Call("tool/call", ToolCall("fault", "echo", {{"text", "hi"}}));
  EXPECT_EQ(unoffered["result"]["state"], "refused") << unoffered.dump();
  EXPECT_EQ(
      session->Call("tools/answer", {{"alias", "fault"}, {"answer", "1"}})["result"]["offered"],
      true);

  Json echoed = session->Call("tool/call", ToolCall("fault", "echo", {{"text", "hi"}}));
  EXPECT_EQ(echoed["result"]["result"]["content"][0]["text"], "hi");
  auto line = session->WaitFor("server/stderr", In(seconds(5)));
  ASSERT_TRUE(line);
  EXPECT_EQ((*line)["params"], (Json{{"alias", "fault"}, {"line", "line 1"}}));

  Json status = session->Call("session/status");
  EXPECT_THAT(status["result"]["text"].get<std::string>(), HasSubstr("  MCP servers   fault\n"));
  EXPECT_THAT(status["result"]["text"].get<std::string>(),
              HasSubstr("fault: 1 tool offered to the model\n"));
  EXPECT_EQ(status["result"]["servers"][0]["state"], "running");

  Json stopped = session->Call("server/stop", {{"alias", "fault"}});
  EXPECT_EQ(stopped["result"]["status"], 0);  // it ends when its input closes
  Json closed = session->Call("session/close");
  EXPECT_EQ(closed["result"], Json::object());
  EXPECT_EQ(session->process().Wait(In(seconds(5))), 0);

  // Answer 1 recorded its approval: a second session starts it unasked.
  auto again = Session();
  EXPECT_EQ(StateOf(again->Call("session/open", {{"directory", Checkout()}}), "fault")["state"],
            "start");
}

TEST_F(SupervisorTest, AnswerTwoCoversTheProjectAndThreeLeavesItOut) {
  DeclareFault("first", "stderr-lines", "0");
  DeclareFault("second", "stderr-lines", "1");
  Request({"first"});
  auto session = Session();
  session->Call("session/open", {{"directory", Checkout()}});
  EXPECT_EQ(
      session->Call("server/answer", {{"alias", "first"}, {"answer", "2"}})["result"]["state"],
      "start");
  session->Call("session/close");

  // A later server this checkout asks for starts without the question.
  Request({"first", "second"});
  auto later = Session();
  Json opened = later->Call("session/open", {{"directory", Checkout()}});
  EXPECT_EQ(StateOf(opened, "second")["state"], "start");
  later->Call("session/close");

  DeclareFault("first", "stderr-lines", "5");  // declared anew: answer 2 no longer covers it
  auto third = Session();
  Json reopened = third->Call("session/open", {{"directory", Checkout()}});
  EXPECT_EQ(StateOf(reopened, "first")["state"], "ask");
  Json no = third->Call("server/answer", {{"alias", "first"}, {"answer", "whatever"}});
  EXPECT_EQ(no["result"]["state"], "left-out");
  EXPECT_EQ(third->Call("server/start", {{"alias", "first"}})["error"]["code"], -32002);
}

TEST_F(SupervisorTest, WhereNobodyCanBeAskedAnUnapprovedServerIsLeftOut) {
  DeclareFault("fault", "stderr-lines", "0");
  Request({"fault", "missing"});
  for (const std::string mode : {"one-shot", "no-terminal"}) {
    auto session = Session();
    Json opened = session->Call("session/open", {{"directory", Checkout()}, {"mode", mode}});
    const Json fault = StateOf(opened, "fault");
    EXPECT_EQ(fault["state"], "left-out");
    const std::string who = mode == "one-shot" ? "a one-shot run" : "a session with no terminal";
    EXPECT_EQ(fault["reason"], "fault was not started: " + who +
                                   " asks nobody, so run bravebot-mcp approve fault at a "
                                   "terminal");
    EXPECT_EQ(StateOf(opened, "missing")["state"], "undeclared");
    EXPECT_THAT(opened["result"]["notes"], ::testing::Contains(fault["reason"]));
  }
}

TEST_F(SupervisorTest, SkipPermissionsStartsUnaskedAndRecordsNothing) {
  DeclareFault("fault", "stderr-lines", "0");
  Request({"fault"});
  auto session = Session();
  Json opened =
      session->Call("session/open", {{"directory", Checkout()}, {"skipPermissions", true}});
  EXPECT_EQ(StateOf(opened, "fault")["state"], "start");
  EXPECT_TRUE(session->Call("server/start", {{"alias", "fault"}}).contains("result"));
  session->Call("session/close");
  EXPECT_FALSE(std::filesystem::exists(Profile() + "/mcp-approved"));
}

TEST_F(SupervisorTest, IncognitoRecordsNothingAndItsHomeGoesWithTheServer) {
  Declare("shell", {"--", "/bin/sh", "-c", "echo \"$HOME\" >&2; exec cat"});
  Request({"shell"});
  const auto before = std::filesystem::exists(Profile() + "/mcp-home");
  auto session = Session();
  Json opened =
      session->Call("session/open",
                    {{"directory", Checkout()}, {"incognito", true}, {"startupTimeoutSeconds", 1}});
  EXPECT_EQ(StateOf(opened, "shell")["state"], "ask");
  EXPECT_EQ(
      session->Call("server/answer", {{"alias", "shell"}, {"answer", "2"}})["result"]["state"],
      "start");
  // cat answers nothing: the start fails by the timeout, and its home was made.
  Json started = session->Call("server/start", {{"alias", "shell"}});
  EXPECT_EQ(started["error"]["data"]["step"], "timeout");
  auto home = session->WaitFor("server/stderr", In(seconds(5)));
  ASSERT_TRUE(home);
  const std::string path = (*home)["params"]["line"];
  EXPECT_THAT(path, Not(HasSubstr(Profile())));
  session->Call("session/close");
  // Removed on a thread of its own, which the supervisor awaits as it exits.
  EXPECT_EQ(session->process().Wait(In(seconds(10))), 0);
  EXPECT_FALSE(std::filesystem::exists(path)) << path;
  EXPECT_FALSE(std::filesystem::exists(Profile() + "/mcp-approved"));
  EXPECT_FALSE(std::filesystem::exists(Profile() + "/mcp-projects"));
  EXPECT_EQ(std::filesystem::exists(Profile() + "/mcp-home"), before);
}

// A supervisor killed by SIGKILL cannot remove its servers' run directories
// (an incognito home is in one); the next supervisor does, once nothing
// holds them and they are a minute old.
TEST_F(SupervisorTest, AnIncognitoHomeLeftByAKilledSupervisorGoesWithTheNext) {
  Declare("shell", {"--", "/bin/sh", "-c", "echo \"$HOME\" >&2; exec cat"});
  Request({"shell"});
  auto killed = Session();
  killed->Call("session/open", {{"directory", Checkout()}, {"incognito", true}});
  killed->Call("server/answer", {{"alias", "shell"}, {"answer", "2"}});
  killed->Send("server/start", {{"alias", "shell"}});
  auto home = killed->WaitFor("server/stderr", In(seconds(5)));
  ASSERT_TRUE(home);
  const std::filesystem::path run_directory =
      std::filesystem::path((*home)["params"]["line"].get<std::string>()).parent_path();
  ::kill(killed->process().pid(), SIGKILL);
  killed->process().Wait(In(seconds(5)));
  ASSERT_TRUE(std::filesystem::exists(run_directory));
  // Its server is gone with it, and with it the hold on the directory.
  const auto old = std::filesystem::last_write_time(run_directory) - std::chrono::minutes(2);
  std::filesystem::last_write_time(run_directory, old);

  auto next = Session();
  next->Call("session/open", {{"directory", Checkout()}, {"incognito", true}});
  bool gone = false;
  for (int i = 0; i < 50 && !gone; ++i) {
    gone = !std::filesystem::exists(run_directory);
    if (!gone) std::this_thread::sleep_for(milliseconds(100));
  }
  EXPECT_TRUE(gone) << run_directory;
  next->Call("session/close");
}

// Takes away what a wide-tree server left, where the supervisor left it to
// the next start's sweep: each of its directories was closed to its user.
void RemoveLeftTree(const std::filesystem::path& run_directory) {
  std::error_code ignored;
  for (const auto& entry : std::filesystem::directory_iterator(run_directory, ignored)) {
    std::filesystem::permissions(entry.path(), std::filesystem::perms::owner_all, ignored);
  }
  std::filesystem::remove_all(run_directory, ignored);
}

// A server that leaves in its run directory what takes a second or more to
// remove (400,000 names in 40 directories it closed to itself) holds up
// nothing: its stop is answered, and another server's call too, while its
// directory is removed on a thread of its own; and the supervisor, closed,
// exits once the removal has ended (or after 5 s, leaving it to the sweep).
TEST_F(SupervisorTest, ARunDirectorySlowToRemoveHoldsUpNoOtherServer) {
  using std::chrono::steady_clock;
  DeclareFault("wide", "wide-tree");
  DeclareFault("other", "stderr-lines", "0");
  Request({"wide", "other"});
  auto session = Session();
  OpenAndApprove(*session);
  ASSERT_TRUE(StartAndOffer(*session, "wide").contains("result"));
  ASSERT_TRUE(StartAndOffer(*session, "other").contains("result"));
  const auto fill_sent = steady_clock::now();
  Json filled = session->Call("tool/call", ToolCall("wide", "echo"), seconds(120));
  const auto fill_answered = steady_clock::now();
  ASSERT_TRUE(filled["result"]["result"]["content"][0]["text"].is_string()) << filled.dump();
  const std::filesystem::path run_directory =
      filled["result"]["result"]["content"][0]["text"].get<std::string>();
  ASSERT_TRUE(std::filesystem::exists(run_directory / "wide-39")) << run_directory;

  const auto stop_sent = steady_clock::now();
  Json stopped = session->Call("server/stop", {{"alias", "wide"}});
  const auto stop_answered = steady_clock::now();
  EXPECT_EQ(stopped["result"]["status"], 0) << stopped.dump();
  Json echoed = session->Call("tool/call", ToolCall("other", "echo", {{"text", "still here"}}));
  const auto call_answered = steady_clock::now();
  // Decisive whatever the machine's speed: on the loop, the removal would
  // have ended before either answer was sent.
  const bool still_removed = std::filesystem::exists(run_directory);
  EXPECT_EQ(echoed["result"]["result"]["content"][0]["text"], "still here") << echoed.dump();
  EXPECT_TRUE(still_removed) << "the other server's answer came only once the stopped "
                                "server's run directory was removed";
  const auto in_ms = [](steady_clock::duration d) {
    return std::chrono::duration_cast<milliseconds>(d).count();
  };
  std::cout << "[ measured ] 400,000 names made in " << in_ms(fill_answered - fill_sent)
            << " ms; its server/stop was answered in " << in_ms(stop_answered - stop_sent)
            << " ms, then the other server's tool/call in " << in_ms(call_answered - stop_answered)
            << " ms\n";
  // The issue's figure is 100 ms; this leaves a loaded machine room (an
  // answer takes a few milliseconds), and the check above is the decisive one.
  EXPECT_LT(call_answered - stop_answered, milliseconds(500));

  const auto close_sent = steady_clock::now();
  EXPECT_EQ(session->Call("session/close")["result"], Json::object());
  EXPECT_EQ(session->process().Wait(In(seconds(30))), 0);
  const auto exited = steady_clock::now() - close_sent;
  std::cout << "[ measured ] the supervisor exited " << in_ms(exited)
            << " ms after session/close\n";
  // Gone with the supervisor's wait, or left for the sweep after 5 s of it.
  if (std::filesystem::exists(run_directory)) {
    EXPECT_GE(exited, milliseconds(4900)) << run_directory << " was left, and not for the sweep";
    const auto cleaning = steady_clock::now();
    RemoveLeftTree(run_directory);
    std::cout << "[ measured ] what was left was removed in "
              << in_ms(steady_clock::now() - cleaning) << " ms more\n";
  }
}

TEST_F(SupervisorTest, AStartThatFailsSaysWhichStepAndItsLastWords) {
  DeclareFault("crash", "crash-at-start");
  DeclareFault("silent", "never-answers");
  DeclareFault("banner", "silent-then-banner");
  Declare("talker", {"--", "/bin/sh", "-c", "echo Welcome to my server; exec cat"});
  Request({"crash", "silent", "banner", "talker"});
  auto session = Session();
  OpenAndApprove(*session, {{"startupTimeoutSeconds", 1}});

  // Several starts in flight at once, each answered when its server failed.
  const int crash = session->Send("server/start", {{"alias", "crash"}});
  const int silent = session->Send("server/start", {{"alias", "silent"}});
  const int banner = session->Send("server/start", {{"alias", "banner"}});
  const int talker = session->Send("server/start", {{"alias", "talker"}});

  Json crashed = session->AnswerTo(crash, In(seconds(10))).value_or(Json());
  EXPECT_EQ(crashed["error"]["code"], -32003);
  EXPECT_EQ(crashed["error"]["data"]["step"], "exited");
  EXPECT_EQ(crashed["error"]["data"]["status"], 3);
  EXPECT_EQ(crashed["error"]["data"]["stderrTail"],
            Json::array({"cannot find config", "giving up"}));
  EXPECT_THAT(crashed["error"]["message"].get<std::string>(),
              HasSubstr("crash did not start: the server closed its standard output before "
                        "answering initialize (it exited with status 3)"));

  Json timed_out = session->AnswerTo(silent, In(seconds(10))).value_or(Json());
  EXPECT_EQ(timed_out["error"]["data"]["step"], "timeout");
  EXPECT_EQ(timed_out["error"]["data"]["printedAnything"], false);
  EXPECT_THAT(timed_out["error"]["message"].get<std::string>(),
              HasSubstr("no answer to initialize within 1 s, and it wrote nothing on its "
                        "standard output yet"));

  Json fetching = session->AnswerTo(banner, In(seconds(10))).value_or(Json());
  EXPECT_EQ(fetching["error"]["data"]["stderrTail"], Json::array({"still fetching packages..."}));

  Json not_json = session->AnswerTo(talker, In(seconds(10))).value_or(Json());
  EXPECT_EQ(not_json["error"]["data"]["step"], "not-json");
  EXPECT_THAT(not_json["error"]["message"].get<std::string>(),
              HasSubstr("\"Welcome to my server\""));

  Json status = session->Call("session/status");
  for (const Json& server : status["result"]["servers"]) EXPECT_EQ(server["state"], "failed");
}

TEST_F(SupervisorTest, AProgramNotFoundIsSaidAsTheStepThatFailed) {
  Declare("gone", {"--", temporary_.Join("no-such-program")});
  Request({"gone"});
  auto session = Session();
  OpenAndApprove(*session);
  Json started = session->Call("server/start", {{"alias", "gone"}});
  EXPECT_EQ(started["error"]["code"], -32003);
  EXPECT_THAT(started["error"]["data"]["step"].get<std::string>(),
              ::testing::AnyOf("not-found", "confinement"));
}

TEST_F(SupervisorTest, AServerThatExitsIsReportedAndNeverRestarted) {
  DeclareFault("crash", "crash-mid-call");
  DeclareFault("brief", "exit-after-handshake", "4");
  Request({"crash", "brief"});
  auto session = Session();
  OpenAndApprove(*session);
  ASSERT_TRUE(StartAndOffer(*session, "crash").contains("result"));
  Json call = session->Call("tool/call", ToolCall("crash", "echo"));
  EXPECT_EQ(call["error"]["code"], -32005);
  EXPECT_EQ(call["error"]["data"]["status"], 7);
  auto exited = session->WaitFor("server/exited", In(seconds(5)));
  ASSERT_TRUE(exited);
  EXPECT_EQ((*exited)["params"]["alias"], "crash");
  EXPECT_EQ((*exited)["params"]["status"], 7);
  EXPECT_THAT((*exited)["params"]["stderrTail"], ::testing::Contains("segfault in handler"));

  ASSERT_TRUE(session->Call("server/start", {{"alias", "brief"}}).contains("result"));
  auto brief = session->WaitFor("server/exited", In(seconds(5)));
  ASSERT_TRUE(brief);
  EXPECT_EQ((*brief)["params"]["status"], 4);
  EXPECT_EQ(session->Call("server/start", {{"alias", "brief"}})["error"]["code"], -32002);
  Json after = session->Call("server/request", {{"alias", "brief"}, {"method", "ping"}});
  EXPECT_EQ(after["error"]["code"], -32002);
}

TEST_F(SupervisorTest, AServersRequestsGetIdsOfOursAndRepliesGoBackUnderItsOwn) {
  DeclareFault("clash", "clashing-ids");
  Request({"clash"});
  auto session = Session();
  OpenAndApprove(*session);
  ASSERT_TRUE(StartAndOffer(*session, "clash").contains("result"));
  // Our own request uses id 1 too, where the server's requests do.
  const int call = session->Send("tool/call", ToolCall("clash", "echo"));
  auto roots = session->WaitFor(
      [](const Json& m) {
        return m["method"] == "server/message" && m["params"]["message"]["method"] == "roots/list";
      },
      In(seconds(5)));
  auto ping = session->WaitFor(
      [](const Json& m) {
        return m["method"] == "server/message" && m["params"]["message"]["method"] == "ping";
      },
      In(seconds(5)));
  ASSERT_TRUE(roots && ping);
  const Json roots_id = (*roots)["params"]["message"]["id"];
  const Json ping_id = (*ping)["params"]["message"]["id"];
  EXPECT_TRUE(roots_id.is_number_integer());
  EXPECT_NE(roots_id, ping_id);
  EXPECT_EQ(
      session->Call("server/reply",
                    {{"alias", "clash"}, {"id", ping_id}, {"result", Json::object()}})["result"],
      Json::object());
  EXPECT_EQ(
      session->Call("server/reply", {{"alias", "clash"},
                                     {"id", roots_id},
                                     {"result", {{"roots", {{{"uri", "file:///w"}}}}}}})["result"],
      Json::object());
  Json answer = session->AnswerTo(call, In(seconds(5))).value_or(Json());
  EXPECT_EQ(answer["result"]["result"]["content"][0]["text"],
            "roots:{\"roots\":[{\"uri\":\"file:///w\"}]}");
  // An id answered already answers nothing.
  EXPECT_EQ(session->Call(
                "server/reply",
                {{"alias", "clash"}, {"id", ping_id}, {"result", Json::object()}})["error"]["code"],
            -32602);
}

TEST_F(SupervisorTest, ACancelledRequestIsAnsweredAndTheServerTold) {
  DeclareFault("clash", "clashing-ids");  // its call waits for replies never sent
  Request({"clash"});
  auto session = Session();
  OpenAndApprove(*session);
  ASSERT_TRUE(StartAndOffer(*session, "clash").contains("result"));
  const int call = session->Send("tool/call", ToolCall("clash", "echo"));
  ASSERT_TRUE(session->WaitFor("server/message", In(seconds(5))));
  EXPECT_EQ(session->Call("request/cancel", {{"id", call}})["result"], Json::object());
  Json cancelled = session->AnswerTo(call, In(seconds(5))).value_or(Json());
  EXPECT_EQ(cancelled["error"]["code"], -32800);
  EXPECT_EQ(session->Call("request/cancel", {{"id", call}})["error"]["code"], -32602);
}

// Read in the same read as the stop that follows it, a notification still
// reaches the server before its input is closed.
TEST_F(SupervisorTest, ANotificationSentTogetherWithAStopReachesTheServerFirst) {
  DeclareFault("listener", "tell-notifications");
  Request({"listener"});
  auto session = Session();
  OpenAndApprove(*session);
  ASSERT_TRUE(StartAndOffer(*session, "listener").contains("result"));
  const std::vector<int> ids = session->SendTogether(
      {{"server/notify", {{"alias", "listener"}, {"method", "notifications/roots/list_changed"}}},
       {"server/stop", {{"alias", "listener"}}}});
  EXPECT_TRUE(session->AnswerTo(ids[0], In(seconds(5))).value_or(Json()).contains("result"));
  Json stopped = session->AnswerTo(ids[1], In(seconds(10))).value_or(Json());
  EXPECT_EQ(stopped["result"]["status"], 0) << stopped.dump();
  auto told = session->WaitFor(
      [](const Json& m) {
        return m["method"] == "server/stderr" &&
               m["params"]["line"] == "notification notifications/roots/list_changed";
      },
      In(seconds(5)));
  EXPECT_TRUE(told) << session->Log();
}

TEST_F(SupervisorTest, ALineItCannotReadStopsTheServerAndALineNotJsonEndsTheCallsWaiting) {
  DeclareFault("huge", "huge-line", "20");
  DeclareFault("noisy", "not-json");
  Request({"huge", "noisy"});
  auto session = Session();
  OpenAndApprove(*session);
  ASSERT_TRUE(StartAndOffer(*session, "noisy").contains("result"));
  // "this is not JSON" comes while the call waits: the call is answered in
  // our words, and the answer that follows it is dropped.
  Json echoed = session->Call("tool/call", ToolCall("noisy", "echo", {{"text", "ok"}}));
  EXPECT_EQ(echoed["error"]["code"], -32004) << echoed.dump();
  EXPECT_EQ(echoed["error"]["data"]["code"], -32700);
  EXPECT_THAT(echoed.dump(), Not(HasSubstr("this is not JSON")));
  // It runs on; the line is logged before the next request is read.
  EXPECT_EQ(session->Call("session/status")["result"]["servers"][0]["state"], "running");
  EXPECT_THAT(session->Log(), HasSubstr("noisy wrote a line that is not JSON (16 bytes) after "
                                        "its handshake; 1 request waiting on it could not be "
                                        "read and was answered with code -32700"));
  EXPECT_THAT(session->Log(), Not(HasSubstr("this is not JSON")));

  ASSERT_TRUE(StartAndOffer(*session, "huge").contains("result"));
  Json call = session->Call("tool/call", ToolCall("huge", "echo"));
  EXPECT_EQ(call["error"]["code"], -32004);
  EXPECT_THAT(call["error"]["message"].get<std::string>(),
              HasSubstr("huge was stopped: huge wrote a line longer than 16 MiB while bravebot-mcp "
                        "waited for its answer to tools/call for echo"));
  EXPECT_TRUE(session->WaitFor("server/exited", In(seconds(10))));
}

TEST_F(SupervisorTest, AnAnswerTooLongForTheSessionIsSaidInItsPlace) {
  // A list of 9 MiB is one a server may send; server/start's answer holds it
  // twice (as the server wrote it, and as the model would read it).
  DeclareFault("wordy", "huge-list", "9");
  Request({"wordy"});
  auto session = Session();
  OpenAndApprove(*session, {{"skipPermissions", true}});
  Json started = session->Call("server/start", {{"alias", "wordy"}}, std::chrono::seconds(60));
  ASSERT_TRUE(started.contains("error")) << started.dump().substr(0, 400);
  EXPECT_EQ(started["error"]["code"], -32603);
  EXPECT_EQ(started["error"]["message"],
            "the answer is longer than 16 MiB once written, which no session reads");
  EXPECT_EQ(session->Call("session/status")["result"]["servers"][0]["state"], "running");
}

TEST_F(SupervisorTest, AServerThatClosesItsOutputAndRunsOnFailsOrIsStopped) {
  DeclareFault("closed", "close-output");
  DeclareFault("later", "close-output-mid-call");
  Request({"closed", "later"});
  auto session = Session();
  OpenAndApprove(*session);  // a start timeout of 30 s: not what ends them

  Json start = session->Call("server/start", {{"alias", "closed"}}, milliseconds(10000));
  EXPECT_EQ(start["error"]["code"], -32003) << start.dump();
  EXPECT_EQ(start["error"]["data"]["step"], "closed");
  EXPECT_THAT(start["error"]["message"].get<std::string>(),
              HasSubstr("closed did not start: the server closed its standard output before "
                        "answering initialize and did not end"));
  EXPECT_EQ(start["error"]["data"]["stderrTail"], Json::array({"closed my output"}));

  ASSERT_TRUE(StartAndOffer(*session, "later").contains("result"));
  Json call = session->Call("tool/call", ToolCall("later", "echo"), milliseconds(10000));
  EXPECT_EQ(call["error"]["code"], -32004);
  EXPECT_THAT(call["error"]["message"].get<std::string>(),
              HasSubstr("later was stopped: later closed its standard output while bravebot-mcp "
                        "waited for its answer to tools/call for echo and did not end"));
  EXPECT_TRUE(session->WaitFor("server/exited", In(seconds(10))));
}

TEST_F(SupervisorTest, AFloodIsReadNoFasterThanTheSessionReads) {
  DeclareFault("flood", "flood");
  Request({"flood"});
  auto session = Session();
  OpenAndApprove(*session);
  ASSERT_TRUE(StartAndOffer(*session, "flood").contains("result"));
  session->Send("tool/call", ToolCall("flood", "echo"));
  // Nothing is read for a while: the supervisor stops reading the server
  // rather than queue without end, so its memory stops growing. Unbounded,
  // the flood would add tens of MiB a second.
  std::this_thread::sleep_for(seconds(1));
  const long early = ResidentKib(session->process().pid());
  std::this_thread::sleep_for(seconds(2));
  const long later = ResidentKib(session->process().pid());
  // What it read comes in order, every message whole, as the session reads
  // on (as slowly as a sanitizer's build under load reads: no time is set).
  auto thousandth = session->WaitFor(
      [](const Json& message) {
        return message["method"] == "server/message" &&
               message["params"]["message"]["params"]["data"] == "flood 1000";
      },
      In(seconds(60)));
  ASSERT_TRUE(thousandth) << "the thousandth message of the flood never came";
  int expected = 1;
  for (const Json& message : session->notifications()) {
    if (message["method"] != "server/message") continue;
    EXPECT_EQ(message["params"]["message"]["params"]["data"], "flood " + std::to_string(expected));
    ++expected;
  }
  EXPECT_EQ(expected, 1000);  // the 999 before it, each once, in order
  EXPECT_EQ(session->Call("server/stop", {{"alias", "flood"}}).contains("result"), true);
  SKIP_WHERE_RESIDENT_SIZE_SAYS_NOTHING();
  ASSERT_GT(early, 0);
  EXPECT_LT(later - early, 8 * 1024) << "the supervisor grew from " << early << " to " << later
                                     << " KiB while a server flooded it";
}

TEST_F(SupervisorTest, ASessionThatReadsNothingIsReadNoMore) {
  auto session = Session();
  // Each line is answered with an error; nothing of the answers is read, so
  // the supervisor stops reading, and the writer waits in its pipe.
  std::string lines;
  for (int i = 0; i < 400000; ++i) lines += "x\n";
  const long before = ResidentKib(session->process().pid());
  EXPECT_FALSE(session->process().Write(lines, In(seconds(3))));
  SKIP_WHERE_RESIDENT_SIZE_SAYS_NOTHING();
  // Read in full, the 800 KiB would be answered with tens of MiB of errors.
  EXPECT_LT(ResidentKib(session->process().pid()) - before, 32 * 1024);
}

TEST_F(SupervisorTest, AServersUnansweredRequestsAreBounded) {
  // Asks the session 1100 pings at once, and one more with an id too long;
  // says on its standard error how each answer came.
  const std::string asking = R"(
import json, sys
def send(m):
    sys.stdout.write(json.dumps(m) + "\n"); sys.stdout.flush()
for line in sys.stdin:
    m = json.loads(line)
    if m.get("method") == "initialize":
        send({"jsonrpc": "2.0", "id": m["id"], "result": {"protocolVersion": "2025-11-25",
              "capabilities": {}, "serverInfo": {"name": "asking", "version": "1"}}})
    elif m.get("method") == "notifications/initialized":
        for i in range(1100):
            send({"jsonrpc": "2.0", "id": i, "method": "ping"})
        send({"jsonrpc": "2.0", "id": "x" * 300, "method": "ping"})
    elif "method" not in m:
        code = m["error"]["code"] if "error" in m else 0
        sys.stderr.write("answer %s %d\n" % (str(m["id"])[:5], code)); sys.stderr.flush()
)";
  Declare("asking", {"--", "/usr/bin/python3", "-c", asking});
  Request({"asking"});
  auto session = Session();
  OpenAndApprove(*session);
  ASSERT_TRUE(session->Call("server/start", {{"alias", "asking"}}).contains("result"));
  auto refused = session->WaitFor(
      [](const Json& m) {
        return m["method"] == "server/stderr" && m["params"]["line"] == "answer xxxxx -32600";
      },
      In(seconds(10)));
  EXPECT_TRUE(refused) << "the request with an id of 300 bytes was not refused";
  auto too_many = session->WaitFor(
      [](const Json& m) {
        return m["method"] == "server/stderr" && m["params"]["line"] == "answer 1099 -32603";
      },
      In(seconds(10)));
  EXPECT_TRUE(too_many) << "the 1100th request was not refused";
  int relayed = 0;
  for (const Json& message : session->notifications()) {
    if (message["method"] == "server/message") ++relayed;
  }
  EXPECT_EQ(relayed, 1024);
}

TEST_F(SupervisorTest, AnObjectTooWideToReadIsRefusedInWords) {
  auto session = Session();
  std::string wide = R"({"jsonrpc":"2.0","id":7,"method":"session/status","params":{)";
  for (int i = 0; i <= 4096; ++i) {
    if (i > 0) wide += ',';
    wide += '"';
    wide += std::to_string(i);
    wide += "\":0";
  }
  ASSERT_TRUE(session->SendLine(wide + "}}"));
  // Answered in order: once this is, the wide line was.
  EXPECT_EQ(session->Call("session/status")["error"]["code"], -32001);
  ASSERT_EQ(session->unmatched().size(), 1u);
  const Json& refused = session->unmatched()[0];
  EXPECT_EQ(refused["error"]["code"], -32700);
  EXPECT_EQ(refused["error"]["message"],
            "the line holds a JSON object of more than 4096 members, which no request needs");
}

TEST_F(SupervisorTest, BadInputGetsAnErrorAndChangesNothing) {
  auto session = Session();
  EXPECT_EQ(session->Call("server/start", {{"alias", "x"}})["error"]["code"], -32001);
  ASSERT_TRUE(session->SendLine("this is not json"));
  ASSERT_TRUE(session->SendLine("{\"jsonrpc\":2,\"id\":40,\"method\":\"session/status\"}"));
  ASSERT_TRUE(session->SendLine("[{\"jsonrpc\":\"2.0\",\"id\":50,\"method\":\"session/status\"}]"));
  Json opened = session->Call("session/open", {{"directory", Checkout()}, {"incognitoo", true}});
  EXPECT_EQ(opened["error"]["code"], -32602);
  EXPECT_THAT(opened["error"]["message"].get<std::string>(), HasSubstr("incognitoo"));
  EXPECT_EQ(session->Call("session/open", {{"directory", "relative"}})["error"]["code"], -32602);
  EXPECT_EQ(
      session->Call("session/open", {{"directory", Checkout()}, {"mode", "tty"}})["error"]["code"],
      -32602);
  EXPECT_TRUE(session->Call("session/open", {{"directory", Checkout()}}).contains("result"));
  EXPECT_EQ(session->Call("session/open", {{"directory", Checkout()}})["error"]["code"], -32001);
  EXPECT_EQ(session->Call("server/launch", {{"alias", "x"}})["error"]["code"], -32601);
  EXPECT_EQ(session->Call("server/start", {{"alias", "x"}})["error"]["code"], -32002);
  EXPECT_EQ(session->Call("server/start")["error"]["code"], -32602);
  EXPECT_EQ(
      session->Call("server/request", {{"alias", "x"}, {"method", "initialize"}})["error"]["code"],
      -32602);
  EXPECT_TRUE(session->Call("session/status").contains("result"));
  EXPECT_EQ(session->AnswerTo(40, In(seconds(1))).value_or(Json())["error"]["code"], -32600);
  // The two lines that were no request were answered with id null.
  EXPECT_EQ(session->Call("session/close")["result"], Json::object());
  EXPECT_EQ(session->process().Wait(In(seconds(5))), 0);
}

// Whether any process still holds `word` among its arguments, within 5 s.
bool GoneWithin5s(const std::string& word) {
  for (int i = 0; i < 100; ++i) {
    if (ProcessesWithArgument(word).empty()) return true;
    std::this_thread::sleep_for(milliseconds(50));
  }
  return false;
}

// The four ways a session ends its servers, each with a server that
// double-forks a daemon: none of it outlives the end.
enum class Ending { kServerStop, kSessionClose, kInputClosed, kKill };

class SupervisorEndingTest : public SupervisorTest, public ::testing::WithParamInterface<Ending> {};

TEST_P(SupervisorEndingTest, NothingAServerStartedOutlivesIt) {
  // The word marks every process of this test, daemons included.
  const std::string word = "daemon-of-" + std::to_string(::getpid()) + "-" +
                           std::to_string(static_cast<int>(GetParam()));
  DeclareFault("forks", "double-fork", word);
  Request({"forks"});
  auto session = Session();
  OpenAndApprove(*session);
  ASSERT_TRUE(session->Call("server/start", {{"alias", "forks"}}).contains("result"));
  auto daemon = session->WaitFor("server/stderr", In(seconds(5)));
  ASSERT_TRUE(daemon);
  EXPECT_THAT((*daemon)["params"]["line"].get<std::string>(), HasSubstr("daemon "));
  ASSERT_FALSE(ProcessesWithArgument(word).empty());
  switch (GetParam()) {
    case Ending::kServerStop:
      EXPECT_TRUE(session->Call("server/stop", {{"alias", "forks"}}).contains("result"));
      break;
    case Ending::kSessionClose:
      session->Call("session/close");
      break;
    case Ending::kInputClosed:
      session->process().CloseInput();
      EXPECT_EQ(session->process().Wait(In(seconds(10))), 0);
      break;
    case Ending::kKill:
      ::kill(session->process().pid(), SIGKILL);
      session->process().Wait(In(seconds(5)));
      break;
  }
  EXPECT_TRUE(GoneWithin5s(word));
}

INSTANTIATE_TEST_SUITE_P(Endings, SupervisorEndingTest,
                         ::testing::Values(Ending::kServerStop, Ending::kSessionClose,
                                           Ending::kInputClosed, Ending::kKill));

// The same ends, each arriving in the same write as server/start, so that
// the supervisor takes it while the server is still being launched on its
// launcher thread: whatever the launch started is stopped once it is up.
TEST_P(SupervisorEndingTest, AnEndWhileTheServerIsLaunchedEndsItToo) {
  const std::string word =
      "launched-" + std::to_string(::getpid()) + "-" + std::to_string(static_cast<int>(GetParam()));
  DeclareFault("forks", "double-fork", word);
  Request({"forks"});
  auto session = Session();
  OpenAndApprove(*session);
  const std::pair<std::string, Json> start = {"server/start", {{"alias", "forks"}}};
  std::vector<int> ids;
  switch (GetParam()) {
    case Ending::kServerStop:
      ids = session->SendTogether({start, {"server/stop", {{"alias", "forks"}}}});
      break;
    case Ending::kSessionClose:
      ids = session->SendTogether({start, {"session/close", nullptr}});
      break;
    case Ending::kInputClosed:
      session->SendTogether({start});
      session->process().CloseInput();
      break;
    case Ending::kKill:
      session->SendTogether({start});
      ::kill(session->process().pid(), SIGKILL);
      break;
  }
  if (ids.size() == 2) {
    Json started = session->AnswerTo(ids[0], In(seconds(10))).value_or(Json());
    EXPECT_EQ(started["error"]["code"], -32005) << started.dump();
    EXPECT_EQ(started["error"]["data"], Json({{"status", nullptr}}));
    EXPECT_TRUE(session->AnswerTo(ids[1], In(seconds(10))).value_or(Json()).contains("result"));
  }
  if (GetParam() == Ending::kKill) {
    session->process().Wait(In(seconds(5)));
  } else if (GetParam() != Ending::kServerStop) {
    EXPECT_EQ(session->process().Wait(In(seconds(10))), 0);
  }
  EXPECT_TRUE(GoneWithin5s(word));
}

TEST_F(SupervisorTest, ASessionWithServerEverythingDoesAllOfIt) {
  SKIP_WITHOUT_PEERS();
  Declare("everything", {"-e", "PATH=" + PeersDirectory() + "/bin:/usr/bin:/bin", "-e",
                         "GREETING=hello", "--", "mcp-server-everything"});
  Request({"everything"});
  auto session = Session();
  Json opened = OpenAndApprove(*session, {{"capabilities", {{"sampling", Json::object()}}}});
  Json started = StartAndOffer(*session, "everything");
  ASSERT_TRUE(started.contains("result")) << started.dump() << session->Log();
  std::vector<std::string> names;
  for (const Json& tool : started["result"]["tools"]) names.push_back(tool["name"]);
  EXPECT_THAT(names, ::testing::IsSupersetOf({"echo", "get-env", "trigger-sampling-request"}));
  // What it writes on its standard error as it starts reaches the session.
  auto said = session->WaitFor(
      [](const Json& m) {
        return m["method"] == "server/stderr" && m["params"]["alias"] == "everything" &&
               m["params"]["line"].get<std::string>().find("Starting") != std::string::npos;
      },
      In(seconds(5)));
  EXPECT_TRUE(said) << session->Log();

  Json echoed = session->Call("tool/call", ToolCall("everything", "echo", {{"message", "hi"}}));
  EXPECT_THAT(echoed["result"]["result"]["content"][0]["text"].get<std::string>(), HasSubstr("hi"));
  Json env = session->Call("tool/call", ToolCall("everything", "get-env"));
  const std::string variables = env["result"]["result"]["content"][0]["text"];
  EXPECT_THAT(variables, HasSubstr("GREETING"));
  EXPECT_THAT(variables, Not(HasSubstr("BRAVEBOT_HOME")));

  // The server asks the session for a sampling; the session answers it.
  const int call = session->Send("tool/call", ToolCall("everything", "trigger-sampling-request",
                                                       {{"prompt", "p"}, {"maxTokens", 5}}));
  auto asked = session->WaitFor(
      [](const Json& m) {
        return m["method"] == "server/message" &&
               m["params"]["message"]["method"] == "sampling/createMessage";
      },
      In(seconds(10)));
  ASSERT_TRUE(asked);
  session->Call("server/reply", {{"alias", "everything"},
                                 {"id", (*asked)["params"]["message"]["id"]},
                                 {"result",
                                  {{"role", "assistant"},
                                   {"content", {{"type", "text"}, {"text", "sampled words"}}},
                                   {"model", "test-model"}}}});
  Json sampled = session->AnswerTo(call, In(seconds(10))).value_or(Json());
  EXPECT_THAT(sampled["result"]["result"]["content"][0]["text"].get<std::string>(),
              HasSubstr("sampled words"));

  EXPECT_TRUE(session->Call("server/stop", {{"alias", "everything"}}).contains("result"));
  session->Call("session/close");
  EXPECT_EQ(session->process().Wait(In(seconds(5))), 0);
}

}  // namespace
}  // namespace bravebot::testing
