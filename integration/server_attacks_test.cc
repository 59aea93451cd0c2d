// An attacker's review of the supervisor and the gateway, as the author of a
// malicious MCP server would try them with a real process (the attacks the
// channel seam can express are in tests/supervisor/session/
// hostile_server_test.cc). Each test is an attack, and passes while the
// attack gets nowhere:
//
//   - A call's result nested to the depth bound exactly (128 levels, the
//     line its answer is on included), which the supervisor takes and
//     passes on nested deeper still. It worked: the gateway read the
//     supervisor's lines to the bound of a server's, refused that answer,
//     and the client's call waited without end, past any call timeout.
//   - A server that never reads its standard input again while calls are
//     written to it: the supervisor may neither block on it nor queue
//     without end; and, ignoring SIGTERM with a child that does too, it
//     must not outlive its stop.
//   - A crash in the middle of writing an answer: nothing of the half line
//     may pass for the answer, and the call is answered.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "integration/gateway_fixture.h"
#include "integration/process_scan.h"
#include "integration/resident_memory.h"
#include "integration/running_command.h"

namespace bravebot::testing {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kInitialize[] =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
    "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"wire\",\"version\":\"1\"}}}\n"
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";

// A Python MCP server of one tool, `tool`, that answers the handshake and
// its list, and does `on_call` (Python, with `m` the call and `send(text)`
// to write a line) at each tools/call. `marker`, where given, is its
// argument, to find its processes by.
std::vector<std::string> PythonServer(const std::string& on_call, const std::string& marker = "") {
  const std::string program = R"(
import json, os, signal, subprocess, sys, time
def send(text):
    sys.stdout.write(text + "\n"); sys.stdout.flush()
for line in sys.stdin:
    m = json.loads(line)
    method = m.get("method")
    if method == "initialize":
        send(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": {
            "protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
            "serverInfo": {"name": "hostile", "version": "1"}}}))
    elif method == "tools/list":
        send(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": {"tools": [
            {"name": "tool", "inputSchema": {"type": "object"}}]}}))
    elif method == "tools/call":
)" + on_call;
  std::vector<std::string> words = {"--", "/usr/bin/python3", "-c", program};
  if (!marker.empty()) words.push_back(marker);
  return words;
}

// The answer to a call, nested `levels` arrays deep inside its content.
std::string NestedAnswer(int levels) {
  return "        send('{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":%s}}' % "
         "(json.dumps(m[\"id\"]), \"[\" * " +
         std::to_string(levels) + " + \"]\" * " + std::to_string(levels) + "))\n";
}

class ServerAttacksTest : public GatewayTest {
 protected:
  std::unique_ptr<RunningCommand> StartGateway(const std::vector<std::string>& flags) {
    std::vector<std::string> argv = {OurProgram("bravebot-mcp"), "gateway"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    return std::make_unique<RunningCommand>(argv, Environment(), Checkout(),
                                            temporary_.Join("gateway.err"));
  }
  // Reads `gateway`'s lines until the answer to `id`; null where it did not
  // come within `wait`.
  static Json AnswerTo(RunningCommand& gateway, int id, std::chrono::seconds wait) {
    const auto deadline = In(wait);
    while (true) {
      std::vector<std::string> lines = gateway.ReadLines(1, deadline);
      if (lines.empty()) return nullptr;
      Json message = Json::parse(lines[0], nullptr, false);
      if (message.is_object() && message.value("id", Json()) == id) return message;
    }
  }

  // Through a gateway, lists the tools of a server whose one tool answers
  // with arrays nested `depth` deep, calls it, and gives the call's answer
  // (null where none came); the gateway then ends as a client's would.
  Json CallNestedThroughTheGateway(int depth) {
    Declare("deep", PythonServer(NestedAnswer(depth)));
    Request({"deep"});
    auto gateway = StartGateway({"--dangerously-skip-permissions"});
    EXPECT_TRUE(gateway->Write(
        std::string(kInitialize) + R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})" + "\n",
        In(10s)));
    Json listed = AnswerTo(*gateway, 2, 60s);
    if (!listed.is_object()) {
      ADD_FAILURE() << "tools/list was not answered";
      return nullptr;
    }
    EXPECT_THAT(listed.dump(), HasSubstr("deep__tool")) << listed.dump();
    EXPECT_TRUE(gateway->Write(
        R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"deep__tool"}})"
        "\n",
        In(10s)));
    Json called = AnswerTo(*gateway, 3, 30s);
    gateway->CloseInput();
    EXPECT_EQ(gateway->Wait(In(20s)), 0);
    return called;
  }
};

TEST_F(ServerAttacksTest, ACallsResultNestedToTheBoundReachesTheClientThroughTheGateway) {
  // The line and its result: two levels; the arrays of its content the
  // other 126.
  Json called = CallNestedThroughTheGateway(126);
  ASSERT_TRUE(called.is_object()) << "the call was never answered";
  EXPECT_FALSE(called.contains("error")) << called.dump().substr(0, 400);
  EXPECT_TRUE(called["result"]["content"].is_array()) << called.dump().substr(0, 400);
  EXPECT_THAT(called.dump(), HasSubstr(std::string(126, '[')));
}

TEST_F(ServerAttacksTest, OnePastTheBoundFailsTheCallAndItIsAnswered) {
  Json called = CallNestedThroughTheGateway(127);
  ASSERT_TRUE(called.is_object()) << "the call was never answered";
  EXPECT_TRUE(called.contains("error") || called["result"].value("isError", false))
      << called.dump().substr(0, 400);
  EXPECT_THAT(called.dump(), Not(HasSubstr(std::string(127, '['))));
}

TEST_F(ServerAttacksTest, AServerThatNeverReadsItsInputAgainCostsTheSupervisorItsBound) {
  // At its first call it reads nothing more, ever, and never answers; it
  // ignores SIGTERM, and so does a child it leaves, which holds its pipes.
  const std::string marker = "deaf-" + std::to_string(::getpid());
  Declare("deaf", PythonServer("        signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                               "        subprocess.Popen([sys.executable, '-c', 'import signal, "
                               "time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
                               "time.sleep(3600)', sys.argv[1]])\n"
                               "        time.sleep(3600)\n",
                               marker));
  Request({"deaf"});
  auto session = Session();
  OpenAndApprove(*session, {{"skipPermissions", true}});
  ASSERT_TRUE(StartAndOffer(*session, "deaf").contains("result"));
  // 48 calls of 1 MiB each: past the pipe and the 32 MiB the supervisor
  // keeps for a server, so the last are refused unsent.
  const std::string mebibyte(std::size_t{1} << 20, 'a');
  const long before = ResidentKib(session->process().pid());
  std::vector<int> calls;
  calls.reserve(48);
  for (int i = 0; i < 48; ++i) {
    calls.push_back(session->Send(
        "tool/call", {{"alias", "deaf"}, {"tool", "tool"}, {"arguments", {{"text", mebibyte}}}}));
  }
  // The supervisor stays with the session: a status is answered at once.
  Json status = session->Call("session/status", nullptr, 20s);
  EXPECT_EQ(status["result"]["servers"][0]["state"], "running") << status.dump();
  int refused = 0;
  std::vector<int> waiting;  // the calls written to it, or queued for it
  const auto soon = In(3s);
  for (int id : calls) {
    std::optional<Json> answered = session->AnswerTo(id, soon);
    if (!answered) {
      waiting.push_back(id);
      continue;
    }
    EXPECT_THAT(answered->dump(), HasSubstr("more than 32 MiB waits for it"));
    ++refused;
  }
  EXPECT_GE(refused, 12);
  EXPECT_LE(refused, 18);
  const long after = ResidentKib(session->process().pid());
  // Stopped, it is ended whether it reads or not, and every call answered.
  Json stopped = session->Call("server/stop", {{"alias", "deaf"}}, 30s);
  EXPECT_TRUE(stopped.contains("result")) << stopped.dump();
  const auto later = In(20s);
  for (int id : waiting) {
    EXPECT_TRUE(session->AnswerTo(id, later).has_value()) << "call " << id;
  }
  // Neither it nor its child outlives the stop.
  std::vector<std::string> left = ProcessesWithArgument(marker);
  for (int i = 0; i < 50 && !left.empty(); ++i) {
    std::this_thread::sleep_for(100ms);
    left = ProcessesWithArgument(marker);
  }
  EXPECT_TRUE(left.empty()) << left.size() << " of its processes outlived the stop";
  SKIP_WHERE_RESIDENT_SIZE_SAYS_NOTHING();
  ASSERT_GT(before, 0);
  // What waits for it is the 32 MiB bound (and the session's lines as read).
  EXPECT_LT(after - before, 80 * 1024);
}

TEST_F(ServerAttacksTest, ACrashInTheMiddleOfAnAnswerIsNoAnswer) {
  Declare("half", PythonServer(
                      "        sys.stdout.write('{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":"
                      "{\"content\":[{\"type\":\"text\",\"text\":\"half' % json.dumps(m[\"id\"]))\n"
                      "        sys.stdout.flush()\n"
                      "        os._exit(9)\n"));
  Request({"half"});
  auto session = Session();
  OpenAndApprove(*session, {{"skipPermissions", true}});
  ASSERT_TRUE(StartAndOffer(*session, "half").contains("result"));
  Json call = session->Call("tool/call", {{"alias", "half"}, {"tool", "tool"}}, 20s);
  // Answered in our words: its end, or its last line that is not JSON,
  // whichever the supervisor read first.
  ASSERT_TRUE(call.contains("error")) << call.dump();
  EXPECT_THAT(call.dump(), Not(HasSubstr("content")));
  EXPECT_TRUE(session->WaitFor("server/exited", In(10s)));
}

}  // namespace
}  // namespace bravebot::testing
