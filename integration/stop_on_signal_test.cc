// mcp-run asked to end by a signal while a server runs, in --stdio and in a
// slow --call: the server and everything it started end, and its run
// directory is removed, before mcp-run ends as that signal ends a program.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <thread>

#include "integration/process_scan.h"
#include "integration/profile_fixture.h"
#include "integration/running_command.h"

namespace bravebot::testing {
namespace {

using std::chrono::seconds;
using ::testing::IsEmpty;

// Every server below leaves a daemon in a session of its own and then sleeps,
// both marked by a duration no other process sleeps for (its pid in the
// machine's terms is not the server's to know, in its PID namespace).
std::string Sleepers(const std::string& marker) {
  return "setsid sleep " + marker + "1 & exec sleep " + marker + "2";
}

// A server that notes its run directory in its working directory, answers
// the handshake and the tool list, and then never answers tools/call; it
// writes the file "called" when the call came.
constexpr char kSlowServer[] = R"(echo "$TMPDIR" > run
read -r line
echo '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}'
read -r line; read -r line
echo '{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"slow","inputSchema":{"type":"object"}}]}}'
read -r line; echo yes > called
)";

// A server for --stdio that notes the same and says it is ready.
constexpr char kStdioServer[] = R"(echo "$TMPDIR" > run; echo ready
)";

struct Case {
  int signal;
  bool bridge;
};

class StopOnSignalTest : public ProfileTest, public ::testing::WithParamInterface<Case> {
 protected:
  std::string Data() const { return temporary_.Join("data"); }

  // The first line of a file the server wrote, once it is there.
  std::string Note(const std::string& name) {
    const std::string path = Data() + "/" + name;
    for (auto until = In(seconds(10)); std::chrono::steady_clock::now() < until;) {
      std::string text = Slurp(path);
      if (!text.empty() && text.back() == '\n') return text.substr(0, text.size() - 1);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return "";
  }
};

TEST_P(StopOnSignalTest, TheServerEndsAndItsRunDirectoryIsRemoved) {
  const Case& test = GetParam();
  std::filesystem::create_directories(Data());
  std::vector<std::string> argv = {OurProgram("mcp-run")};
  if (test.bridge) {
    argv.push_back("--stdio");
  } else {
    argv.insert(argv.end(), {"--call", "slow", "{}"});
  }
  const std::string marker = "29" + std::to_string(::getpid()) + ".";
  argv.insert(argv.end(), {"x", "--dir", Data(), "--", "/bin/sh", "-c",
                           (test.bridge ? kStdioServer : kSlowServer) + Sleepers(marker)});
  RunningCommand run(argv, Environment(), temporary_.path(), temporary_.Join("stderr"));

  // Signalled once it is surely waiting on the server.
  if (test.bridge) {
    ASSERT_EQ(run.ReadLines(1, In(seconds(10))), std::vector<std::string>{"ready"});
  } else {
    ASSERT_EQ(Note("called"), "yes") << Slurp(temporary_.Join("stderr"));
  }
  const std::string run_directory = Note("run");
  ASSERT_FALSE(run_directory.empty());
  ASSERT_TRUE(std::filesystem::exists(run_directory));

  ASSERT_EQ(::kill(run.pid(), test.signal), 0);
  std::optional<int> status = run.Wait(In(seconds(10)));
  ASSERT_TRUE(status) << "mcp-run still ran 10 s after the signal";
  EXPECT_EQ(*status, 128 + test.signal);
  EXPECT_FALSE(std::filesystem::exists(run_directory)) << run_directory;
  // The server and its daemon are gone (a zombie is not counted: whoever
  // inherited it reaps it).
  for (int tries = 0; tries < 100 && !ProcessesWithArgument(marker + "2").empty(); ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
  }
  EXPECT_THAT(ProcessesWithArgument(marker + "1"), IsEmpty());
  EXPECT_THAT(ProcessesWithArgument(marker + "2"), IsEmpty());
}

INSTANTIATE_TEST_SUITE_P(Signals, StopOnSignalTest,
                         ::testing::Values(Case{SIGTERM, true}, Case{SIGINT, true},
                                           Case{SIGHUP, true}, Case{SIGTERM, false},
                                           Case{SIGINT, false}, Case{SIGHUP, false}),
                         // Not named info: the macro's own function has a parameter so named.
                         [](const ::testing::TestParamInfo<Case>& instance) {
                           return std::string(sigabbrev_np(instance.param.signal)) +
                                  (instance.param.bridge ? "DuringStdio" : "DuringACall");
                         });

}  // namespace
}  // namespace bravebot::testing
