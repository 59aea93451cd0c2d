// mcp-run's account of a server that does not start: which step failed, in
// our words, with the server's last lines on standard error.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "base/unique_fd.h"
#include "integration/dumpable.h"
#include "integration/process_scan.h"
#include "integration/profile_fixture.h"
#include "integration/programs.h"
#include "integration/running_command.h"

namespace bravebot::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

class McpRunTest : public ProfileTest {
 protected:
  CommandOutput McpRun(std::vector<std::string> words, std::vector<std::string> environment = {}) {
    words.insert(words.begin(), OurProgram("mcp-run"));
    if (environment.empty()) environment = Environment();
    return RunCommand(words, environment, temporary_.path());
  }
};

TEST_F(McpRunTest, AProgramNotInTheGivenPathIsNotFound) {
  CommandOutput run = McpRun({"x", "-e", "PATH=/nonexistent", "--", "no-such-server"});
  EXPECT_EQ(run.status, 1);
  EXPECT_THAT(run.err, HasSubstr("x did not start: no-such-server is not found in the PATH the "
                                 "server is given"));
}

TEST_F(McpRunTest, WithoutAPathAProgramByNameIsNotLookedFor) {
  CommandOutput run = McpRun({"x", "--", "sh"}, {"BRAVEBOT_HOME=" + Profile()});
  EXPECT_EQ(run.status, 1);
  EXPECT_THAT(run.err, HasSubstr("name PATH for it (-e PATH), or give the program's full path"));
}

TEST_F(McpRunTest, AServerThatExitsSaysItsStatusAndLastWords) {
  CommandOutput run = McpRun({"x", "--", "/bin/sh", "-c", "echo cannot find config >&2; exit 3"});
  EXPECT_EQ(run.status, 1);
  // Its input or its output, whichever the handshake met closed first.
  EXPECT_THAT(run.err, HasSubstr("x did not start: the server closed its standard "));
  EXPECT_THAT(run.err, HasSubstr(" before answering initialize (it exited with status 3)"));
  EXPECT_THAT(run.err, HasSubstr("its last lines on standard error:\n  cannot find config\n"));
}

TEST_F(McpRunTest, WithoutItsInitBesideItNoServerStartsAndTheReasonIsSaid) {
  // The init is needed only where the server gets a PID namespace, whose
  // first process it is: the server's parent is then pid 1.
  const std::vector<std::string> server = {"x", "--", "/bin/sh", "-c", "echo parent $PPID >&2"};
  if (McpRun(server).err.find("parent 1\n") == std::string::npos) {
    GTEST_SKIP() << "this machine gives a server no PID namespace, so no init is executed";
  }
  const std::string alone = temporary_.Join("alone");
  std::filesystem::create_directories(alone);
  std::filesystem::copy_file(OurProgram("mcp-run"), alone + "/mcp-run");
  std::vector<std::string> words = server;
  words.insert(words.begin(), alone + "/mcp-run");
  CommandOutput run = RunCommand(words, Environment(), temporary_.path());
  EXPECT_EQ(run.status, 1);
  EXPECT_THAT(run.err, HasSubstr("x did not start: bravebot-mcp-init, the first process of every "
                                 "server's PID namespace, is not beside " +
                                 alone + "/; reinstall bravebot-mcp"));
}

TEST_F(McpRunTest, IncognitoItsHomeIsTemporaryAndGoesWithIt) {
  std::vector<std::string> environment = Environment();
  environment.push_back("BRAVEBOT_INCOGNITO=1");
  CommandOutput run =
      McpRun({"x", "--", "/bin/sh", "-c", "echo \"home $HOME\" >&2; exit 3"}, environment);
  EXPECT_EQ(run.status, 1);
  const auto at = run.err.find("  home ");
  ASSERT_NE(at, std::string::npos) << run.err;
  const std::string home = run.err.substr(at + 7, run.err.find('\n', at) - at - 7);
  EXPECT_THAT(home, Not(HasSubstr(Profile())));
  EXPECT_FALSE(std::filesystem::exists(home)) << home;
  EXPECT_FALSE(std::filesystem::exists(Profile() + "/mcp-home"));
}

TEST_F(McpRunTest, AFirstLineThatIsNotJsonIsQuoted) {
  CommandOutput run = McpRun({"x", "--", "/bin/sh", "-c", "echo Welcome to my server; sleep 5"});
  EXPECT_EQ(run.status, 1);
  EXPECT_THAT(run.err, HasSubstr("\"Welcome to my server\""));
}

TEST_F(McpRunTest, NoAnswerInTimeIsSaid) {
  CommandOutput run = McpRun({"--timeout", "1", "x", "--", "/bin/sh", "-c", "sleep 30"});
  EXPECT_EQ(run.status, 1);
  EXPECT_THAT(run.err, HasSubstr("no answer to initialize within 1 s"));
  EXPECT_THAT(run.err, HasSubstr("; mcp-run --timeout SECONDS gives it longer"));
}

TEST_F(McpRunTest, ADirectoryThatBecameARepositoryIsRefusedAtStart) {
  const std::string data = temporary_.Join("data");
  std::filesystem::create_directories(data);
  ASSERT_EQ(Mcp({"add", "fs", "--dir", data, "--", "/bin/cat"}).status, 0);
  std::filesystem::create_directories(data + "/.git");
  CommandOutput run = McpRun({"fs"});
  EXPECT_EQ(run.status, 1);
  EXPECT_THAT(run.err, HasSubstr(std::filesystem::canonical(data).string() +
                                 " is a git repository, and a server may not be given one"));
}

TEST_F(McpRunTest, ItsRunDirectoryIsRemovedAndNothingIsLeftRunning) {
  const std::string data = temporary_.Join("data");
  std::filesystem::create_directories(data);
  // A duration no other process sleeps for marks what the server started.
  const std::string marker = "299." + std::to_string(::getpid());
  CommandOutput run =
      McpRun({"--timeout", "1", "x", "--dir", data, "--", "/bin/sh", "-c",
              "sleep " + marker + " & echo started > child; echo \"$TMPDIR\" > run; sleep 300"});
  EXPECT_EQ(run.status, 1);
  const std::string run_directory = Slurp(data + "/run");
  ASSERT_FALSE(Slurp(data + "/child").empty());
  ASSERT_FALSE(run_directory.empty());
  EXPECT_FALSE(std::filesystem::exists(run_directory.substr(0, run_directory.size() - 1)));
  // What the server started in the background ended with it.
  EXPECT_THAT(ProcessesWithArgument(marker), IsEmpty());
}

// A run killed by SIGKILL leaves its directory: the next run removes it
// once nothing holds it and it is a minute old.
TEST_F(McpRunTest, ARunDirectoryLeftByAKilledRunGoesWithTheNext) {
  // Where mcp-run makes them, whatever TMPDIR says.
  std::string left = "/tmp/bravebot-run-XXXXXX";
  ASSERT_NE(::mkdtemp(left.data()), nullptr);
  std::filesystem::create_directories(left + "/home");
  std::ofstream(left + "/home/kept") << "what the server wrote";
  std::filesystem::last_write_time(
      left, std::filesystem::file_time_type::clock::now() - std::chrono::minutes(2));
  // Removed on a thread of mcp-run's own, which a run that ends at once may
  // end before it is done (on a busy machine, before it ran at all: CI's
  // run as an unprivileged user, beside the kernel matrix, met that in 20
  // runs in a row). Each run's server lives a fifth of a second, which a
  // sweep needs far less than; each run goes on with it.
  for (int run = 0; run < 20 && std::filesystem::exists(left); ++run) {
    McpRun({"x", "--", "/bin/sh", "-c", "sleep 0.2; exit 3"});
  }
  EXPECT_FALSE(std::filesystem::exists(left)) << left;
}

TEST_F(McpRunTest, AHomeThatIsALinkIsRefused) {
  ASSERT_EQ(Mcp({"add", "cat", "--", "/bin/cat"}).status, 0);
  const std::string elsewhere = temporary_.Join("elsewhere");
  std::filesystem::create_directories(elsewhere);
  std::filesystem::create_directories(Profile() + "/mcp-home");
  const std::string digest = nlohmann::json::parse(Mcp({"get", "cat", "--json"}).out)["digest"];
  std::filesystem::create_directory_symlink(elsewhere, Profile() + "/mcp-home/" + digest);
  CommandOutput run = McpRun({"cat"});
  EXPECT_EQ(run.status, 1);
  EXPECT_THAT(run.err, HasSubstr("is a link or not a directory, and a server's home is never "
                                 "reached through one"));
}

TEST_F(McpRunTest, TheAdministratorsRefusalAppliesHereToo) {
  const std::string managed = temporary_.Join("managed.json");
  std::ofstream(managed) << R"({"mcp": {"allow": [{"command": ["/bin/cat"]}]}})";
  std::vector<std::string> environment = Environment();
  environment.push_back("BRAVEBOT_MANAGED_FILE=" + managed);
  CommandOutput refused = McpRun({"x", "--", "/bin/sh", "-c", "exit 0"}, environment);
  EXPECT_EQ(refused.status, 1);
  EXPECT_THAT(refused.err,
              HasSubstr("x was not started, whatever was declared or approved: " + managed +
                        ", which this machine's administrator manages, allows only the servers "
                        "its mcp.allow names, and not this one"));
  // What it allows starts (and here fails later, at the handshake: cat is no MCP server).
  CommandOutput allowed = McpRun({"--timeout", "1", "y", "--", "/bin/cat"}, environment);
  EXPECT_THAT(allowed.err, Not(HasSubstr("whatever was declared")));
}

TEST_F(McpRunTest, AToolListNestedTooDeepIsRefusedInOurWords) {
  CommandOutput run = McpRun({"x", "--", OurProgram("fake_servers/deep_answers"), "tools/list"});
  EXPECT_EQ(run.status, 1);  // not 128 + a signal: no crash
  EXPECT_THAT(run.err, HasSubstr("mcp-run: x did not start: the server wrote JSON nested deeper "
                                 "than 128 levels while bravebot-mcp waited for its answer to "
                                 "tools/list; bravebot-mcp reads no deeper\n"));
}

TEST_F(McpRunTest, ACallResultNestedTooDeepIsRefusedInOurWords) {
  CommandOutput run = McpRun(
      {"--call", "deep", "{}", "x", "--", OurProgram("fake_servers/deep_answers"), "tools/call"});
  EXPECT_EQ(run.status, 1);
  EXPECT_THAT(run.err, HasSubstr("mcp-run: the server wrote JSON nested deeper than 128 levels "
                                 "while bravebot-mcp waited for its answer to tools/call for "
                                 "deep; bravebot-mcp reads no deeper\n"));
  EXPECT_EQ(run.out, "");
}

TEST_F(McpRunTest, AToolListWithoutEndIsRefusedPast16MiB) {
  CommandOutput run = McpRun({"x", "--", OurProgram("fake_servers/endless_pages")});
  EXPECT_EQ(run.status, 1);
  EXPECT_THAT(run.err, HasSubstr("mcp-run: x did not start: the server's tools/list ran past 16 "
                                 "MiB across its pages; bravebot-mcp reads no more\n"));
}

TEST_F(McpRunTest, CallArgumentsNestedTooDeepAreRefusedBeforeAnythingStarts) {
  // As deep as one word of a command line can hold (128 KiB).
  const std::string deep = "{\"a\": " + std::string(60'000, '[') + std::string(60'000, ']') + "}";
  CommandOutput run = McpRun({"--call", "t", deep, "x", "--", "/bin/cat"});
  EXPECT_EQ(run.status, 2);
  EXPECT_THAT(run.err, HasSubstr("mcp-run: the arguments --call was given are nested deeper than "
                                 "128 levels, which no tool needs\n"));
}

TEST_F(McpRunTest, ItMakesItselfNonDumpable) {
  RunningCommand run(WithAnOwnerOtherThanRoot({OurProgram("mcp-run"), "--stdio", "x", "--",
                                               "/bin/sh", "-c", "echo ready; exec sleep 30"}),
                     Environment(), temporary_.path(), temporary_.Join("stderr"));
  ASSERT_EQ(run.ReadLines(1, In(std::chrono::seconds(10))), std::vector<std::string>{"ready"})
      << Slurp(temporary_.Join("stderr"));
  EXPECT_TRUE(BecomesNonDumpable(run.pid(), "mcp-run"));
  // Asked to end, it stops the server and removes its run directory.
  ::kill(run.pid(), SIGTERM);
  EXPECT_EQ(run.Wait(In(std::chrono::seconds(10))), 128 + SIGTERM);
}

// A client that never reads mcp-run's standard error, while the server
// fills it: once the client's input ends the server is stopped, and what it
// wrote last is given up rather than waited on for ever.
TEST_F(McpRunTest, AClientThatNeverReadsItsErrorsDoesNotKeepItRunningAfterTheServer) {
  // mcp-run's standard error: a pipe (a FIFO held open here) nobody reads.
  const std::string errors = temporary_.Join("errors");
  ASSERT_EQ(::mkfifo(errors.c_str(), 0600), 0);
  UniqueFd held(::open(errors.c_str(), O_RDWR | O_CLOEXEC));
  ASSERT_TRUE(held.valid());
  RunningCommand run({OurProgram("mcp-run"), "--stdio", "x", "--", "/bin/sh", "-c",
                      "echo ready; while :; do echo flooding-its-standard-error >&2; done"},
                     Environment(), temporary_.path(), errors);
  ASSERT_EQ(run.ReadLines(1, In(std::chrono::seconds(10))), std::vector<std::string>{"ready"});
  run.CloseInput();
  // The stop sequence takes about two seconds and the giving up two more.
  EXPECT_TRUE(run.Wait(In(std::chrono::seconds(30))).has_value())
      << "mcp-run still runs, waiting to write to an error stream nobody reads";
}

// libcurl and the thirty libraries it needs are loaded the first time a
// service is reached, not by every start (supervisor/servers/curl_library.h).
TEST_F(McpRunTest, LibcurlIsNotLoadedForAServerOverPipes) {
  std::vector<std::string> environment = Environment();
  environment.push_back("LD_DEBUG=libs");
  // A server over pipes that answers the handshake and the tools' list.
  const std::string server =
      R"(read -r line; echo '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":)"
      R"("2025-06-18","capabilities":{},"serverInfo":{"name":"x","version":"1"}}}';)"
      R"( read -r line; read -r line; echo '{"jsonrpc":"2.0","id":2,"result":)"
      R"({"tools":[]}}'; read -r line)";
  CommandOutput run = McpRun({"x", "--", "/bin/sh", "-c", server}, environment);
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_THAT(run.err, HasSubstr("calling init: /lib"));  // the loader did say what it loaded
  EXPECT_THAT(run.err, Not(HasSubstr("libcurl")));
}

TEST_F(McpRunTest, UsageMistakesAreSaid) {
  EXPECT_EQ(McpRun({}).status, 2);
  EXPECT_EQ(McpRun({"--timeout", "soon", "x"}).status, 2);
  EXPECT_EQ(McpRun({"--stdio", "--call", "t", "{}", "x"}).status, 2);
  CommandOutput call = McpRun({"--call", "t", "[1]", "x"});
  EXPECT_EQ(call.status, 2);
  EXPECT_THAT(call.err, HasSubstr("a JSON object"));
  EXPECT_EQ(McpRun({"--help"}).status, 0);
  CommandOutput missing = McpRun({"weather"});
  EXPECT_EQ(missing.status, 1);
  EXPECT_THAT(missing.err, HasSubstr("weather is not declared in"));
}

}  // namespace
}  // namespace bravebot::testing
