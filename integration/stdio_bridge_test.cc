// mcp-run --stdio between a client and a server that each write whole
// messages before they read: both directions relayed at once, and a server
// that does not end by itself stopped once the client is done.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "integration/process_scan.h"
#include "integration/profile_fixture.h"
#include "integration/running_command.h"
#include "supervisor/servers/stop_sequence.h"

namespace bravebot::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr std::size_t kMessageBytes = 1 << 20;
constexpr int kMessages = 3;

class StdioBridgeTest : public ProfileTest {
 protected:
  std::string StderrPath() const { return temporary_.Join("stderr"); }

  std::unique_ptr<RunningCommand> Start(const std::vector<std::string>& argv) {
    return std::make_unique<RunningCommand>(argv, Environment(), temporary_.path(), StderrPath());
  }

  std::unique_ptr<RunningCommand> Bridge(std::vector<std::string> server) {
    std::vector<std::string> argv = {OurProgram("mcp-run"), "--stdio", "x", "--"};
    argv.insert(argv.end(), server.begin(), server.end());
    return Start(argv);
  }

  // Three calls of echo, each 1 MiB of text, as one client would send them.
  static std::string EchoRequests() {
    std::string requests;
    for (int id = 1; id <= kMessages; ++id) {
      nlohmann::json request = {
          {"jsonrpc", "2.0"},
          {"id", id},
          {"method", "tools/call"},
          {"params",
           {{"name", "echo"},
            {"arguments", {{"text", std::string(kMessageBytes, static_cast<char>('a' + id))}}}}}};
      requests += request.dump() + "\n";
    }
    return requests;
  }

  // Writes every request before reading any answer, as a synchronous client
  // does, and checks each answer echoes its request whole.
  void FloodAsASynchronousClient(RunningCommand& client_side) {
    ASSERT_TRUE(client_side.Write(EchoRequests(), In(seconds(20))))
        << "the requests were not all taken in 20 s";
    std::vector<std::string> lines = client_side.ReadLines(kMessages, In(seconds(20)));
    ASSERT_EQ(lines.size(), static_cast<std::size_t>(kMessages));
    for (int id = 1; id <= kMessages; ++id) {
      nlohmann::json answer = nlohmann::json::parse(lines[id - 1], nullptr, false);
      ASSERT_TRUE(answer.is_object());
      EXPECT_EQ(answer["id"], id);
      EXPECT_EQ(answer["result"]["content"][0]["text"],
                std::string(kMessageBytes, static_cast<char>('a' + id)));
    }
  }
};

TEST_F(StdioBridgeTest, ASynchronousClientIsServedAsDirectly) {
  // Directly, for comparison: the server reads while it writes.
  RunningCommand direct({OurProgram("fake_servers/echo_server"), "concurrent"}, Environment(),
                        temporary_.path(), StderrPath());
  FloodAsASynchronousClient(direct);
  // Through the bridge, whose writes to the client wait while the client is
  // still writing: the client's requests must still be taken.
  auto bridge = Bridge({OurProgram("fake_servers/echo_server"), "concurrent"});
  FloodAsASynchronousClient(*bridge);
  bridge->CloseInput();
  EXPECT_EQ(bridge->Wait(In(seconds(10))), 0);
}

TEST_F(StdioBridgeTest, OutputIsRelayedWhileInputWaits) {
  // A synchronous server writes each 1 MiB answer whole before it reads on;
  // the client reads answers as they come, after writing all its requests.
  auto bridge = Bridge({OurProgram("fake_servers/echo_server"), "synchronous"});
  std::vector<std::string> lines;
  std::thread reader([&] { lines = bridge->ReadLines(kMessages, In(seconds(20))); });
  EXPECT_TRUE(bridge->Write(EchoRequests(), In(seconds(20))));
  reader.join();
  EXPECT_EQ(lines.size(), static_cast<std::size_t>(kMessages));
  bridge->CloseInput();
  EXPECT_EQ(bridge->Wait(In(seconds(10))), 0);
}

TEST_F(StdioBridgeTest, AServerThatIgnoresTheEndOfItsInputIsStoppedAfterTheGrace) {
  // It neither reads its input nor ends on SIGTERM: only SIGKILL ends it.
  auto bridge = Bridge({"/bin/sh", "-c", "trap '' TERM; echo ready; while :; do sleep 1; done"});
  ASSERT_EQ(bridge->ReadLines(1, In(seconds(10))), std::vector<std::string>{"ready"});
  const auto ended_input = std::chrono::steady_clock::now();
  bridge->CloseInput();
  std::optional<int> status = bridge->Wait(In(seconds(10)));
  const auto took = std::chrono::steady_clock::now() - ended_input;
  ASSERT_TRUE(status) << "mcp-run --stdio still ran 10 s after its input ended";
  EXPECT_EQ(*status, 128 + SIGKILL);  // the server's status, passed on
  // The stop of every server (servers/stop_sequence.h): its input closed,
  // SIGTERM after kInputClosedGrace, SIGKILL after kTerminateGrace.
  EXPECT_GE(took, kInputClosedGrace + kTerminateGrace - milliseconds(100));
  EXPECT_LE(took, kInputClosedGrace + kTerminateGrace + milliseconds(1500));
}

TEST_F(StdioBridgeTest, AServerThatEndsOnSigtermIsGivenItAfterTheFirstWait) {
  // It does not end when its input does, and ends as it means to on SIGTERM.
  auto bridge =
      Bridge({"/bin/sh", "-c", "trap 'exit 5' TERM; echo ready; while :; do sleep 0.1; done"});
  ASSERT_EQ(bridge->ReadLines(1, In(seconds(10))), std::vector<std::string>{"ready"});
  const auto ended_input = std::chrono::steady_clock::now();
  bridge->CloseInput();
  std::optional<int> status = bridge->Wait(In(seconds(10)));
  const auto took = std::chrono::steady_clock::now() - ended_input;
  ASSERT_TRUE(status);
  EXPECT_EQ(*status, 5);  // ended by its own hand, not killed
  EXPECT_GE(took, kInputClosedGrace - milliseconds(100));
  EXPECT_LT(took, kInputClosedGrace + kTerminateGrace);
}

// A person may redirect files into mcp-run and its output into others (the
// loop cannot wait on a regular file, and reads and writes one at once); the
// server's run directory goes, and what it started ends with it.
TEST_F(StdioBridgeTest, FilesMayBeItsStandardStreams) {
  const std::string marker = "298." + std::to_string(::getpid());
  std::ofstream(temporary_.Join("in")) << "first\nsecond\n";
  const std::string server = "sleep " + marker +
                             " & echo \"$TMPDIR\"; while read line; do echo \"got $line\"; done; "
                             "echo last words >&2";
  CommandOutput run =
      RunCommand({"/bin/sh", "-c", "exec \"$0\" --stdio x -- /bin/sh -c \"$1\" <in >out 2>err",
                  OurProgram("mcp-run"), server},
                 Environment(), temporary_.path());
  EXPECT_EQ(run.status, 0) << Slurp(temporary_.Join("err"));
  std::istringstream out(Slurp(temporary_.Join("out")));
  std::string run_directory, first, second;
  std::getline(out, run_directory);
  std::getline(out, first);
  std::getline(out, second);
  EXPECT_EQ(first, "got first");
  EXPECT_EQ(second, "got second");
  EXPECT_EQ(Slurp(temporary_.Join("err")), "last words\n");
  ASSERT_FALSE(run_directory.empty());
  EXPECT_FALSE(std::filesystem::exists(run_directory)) << run_directory << " was left";
  EXPECT_THAT(ProcessesWithArgument(marker), ::testing::IsEmpty());
}

TEST_F(StdioBridgeTest, TheServersOwnExitStatusIsPassedOn) {
  auto bridge = Bridge({"/bin/sh", "-c", "read line; echo \"$line\"; exit 7"});
  ASSERT_TRUE(bridge->Write("hello\n", In(seconds(10))));
  EXPECT_EQ(bridge->ReadLines(1, In(seconds(10))), std::vector<std::string>{"hello"});
  EXPECT_EQ(bridge->Wait(In(seconds(10))), 7);
}

TEST_F(StdioBridgeTest, ItsStandardErrorReachesOursWithoutHoldingUpItsOutput) {
  // 1 MiB on its standard error before it answers: more than a pipe holds,
  // so the answer comes only if that is read meanwhile. Its last words, after
  // its input ends, are passed on too.
  auto bridge = Bridge({"/bin/sh", "-c",
                        "head -c 1048576 /dev/zero | tr '\\0' x >&2; echo >&2; read line; "
                        "echo \"$line\"; read rest; echo last words >&2"});
  ASSERT_TRUE(bridge->Write("hello\n", In(seconds(10))));
  EXPECT_EQ(bridge->ReadLines(1, In(seconds(10))), std::vector<std::string>{"hello"});
  bridge->CloseInput();
  EXPECT_EQ(bridge->Wait(In(seconds(10))), 0);
  const std::string errors = Slurp(StderrPath());
  EXPECT_NE(errors.find(std::string(1 << 20, 'x') + "\n"), std::string::npos)
      << errors.size() << " bytes on standard error";
  EXPECT_THAT(errors, ::testing::HasSubstr("last words\n"));
}

}  // namespace
}  // namespace bravebot::testing
