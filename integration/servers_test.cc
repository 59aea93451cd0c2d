// Real MCP servers from the npm registry, run confined by mcp-run as a person
// would run them, and what each can and cannot reach.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "integration/hostile_fixture.h"
#include "integration/peers.h"
#include "integration/run_command.h"
#include "tests/temporary_directory.h"

namespace bravebot::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class RealServersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Made traversable, so the same tests run as an unprivileged user.
    ::chmod(temporary_.path().c_str(), 0755);
    std::filesystem::create_directories(Home());
  }
  std::string Home() const { return temporary_.Join("home"); }
  std::string PeersPath() const { return PeersDirectory() + "/bin:/usr/bin:/bin"; }

  CommandOutput McpRun(std::vector<std::string> words, const std::vector<std::string>& more = {}) {
    words.insert(words.begin(), OurProgram("mcp-run"));
    std::vector<std::string> environment = {"BRAVEBOT_HOME=" + temporary_.Join("profile"),
                                            "HOME=" + Home(), "PATH=/usr/bin:/bin",
                                            "SECRET_OF_THE_SESSION=do-not-pass"};
    environment.insert(environment.end(), more.begin(), more.end());
    return RunCommand(words, environment, temporary_.path());
  }

  // The text of the first content item of a tools/call result.
  static std::string ResultText(const CommandOutput& output) {
    auto result = nlohmann::json::parse(output.out, nullptr, false);
    if (result.is_discarded() || !result.contains("content")) return "";
    return result["content"][0].value("text", "");
  }

  TemporaryDirectory temporary_;
};

TEST_F(RealServersTest, EverythingListsItsThirteenTools) {
  SKIP_WITHOUT_PEERS();
  CommandOutput run =
      McpRun({"everything", "-e", "PATH=" + PeersPath(), "--", "mcp-server-everything"});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("everything offers 13 tools\n"));
  EXPECT_THAT(run.out, HasSubstr("  everything:get-env\n"));
  EXPECT_THAT(run.out, HasSubstr("  everything:get-sum\n    a (number), b (number)\n"));
  EXPECT_THAT(run.out, HasSubstr("\xe2\x94\x83 Returns the sum of two numbers\n"));
}

// The other backend, as a kernel without Landlock gets it: the same server,
// its tools, and its environment as given, with one more: bwrap sets PWD to
// the directory it starts in, whatever it was given (bwrap 0.8 cannot be told
// not to), which names nothing the server does not know.
TEST_F(RealServersTest, EverythingRunsUnderBubblewrapGivenOnlyItsVariables) {
  SKIP_WITHOUT_PEERS();
  CommandOutput listed =
      McpRun({"everything", "-e", "PATH=" + PeersPath(), "--", "mcp-server-everything"},
             {"BRAVEBOT_BACKEND=bubblewrap"});
  ASSERT_EQ(listed.status, 0) << listed.err;
  EXPECT_THAT(listed.out, HasSubstr("everything offers 13 tools\n"));
  CommandOutput run = McpRun({"--call", "get-env", "{}", "everything", "-e", "PATH=" + PeersPath(),
                              "-e", "GREETING=hello", "--", "mcp-server-everything"},
                             {"BRAVEBOT_BACKEND=bubblewrap"});
  ASSERT_EQ(run.status, 0) << run.err;
  auto environment = nlohmann::json::parse(ResultText(run), nullptr, false);
  ASSERT_TRUE(environment.is_object()) << run.out;
  std::vector<std::string> names;
  for (const auto& [name, value] : environment.items()) names.push_back(name);
  EXPECT_THAT(names, ::testing::ElementsAre("GREETING", "HOME", "PATH", "PWD", "TMPDIR"));
  EXPECT_EQ(environment["PWD"], environment["TMPDIR"]) << "it starts in its temporary directory";
  EXPECT_THAT(run.out, Not(HasSubstr("do-not-pass")));
}

// Issue 28: server-memory saves by writing a new file and renaming it over
// its file. Given that file (MEMORY_FILE_PATH) in the directory it works in,
// bubblewrap bound the file read-only on its own, a mount point the rename
// failed on (EBUSY). What it may write anyway gets no bind of its own.
TEST_F(RealServersTest, MemorySavesItsFileInItsDirectoryUnderBubblewrap) {
  SKIP_WITHOUT_PEERS();
  const std::string data = temporary_.Join("data");
  std::filesystem::create_directories(data);
  ::chmod(data.c_str(), 0777);  // the unprivileged user's run writes it too
  const std::string memory = data + "/memory.json";
  std::ofstream(memory) << "";
  ::chmod(memory.c_str(), 0666);
  const nlohmann::json entities = {
      {"entities", {{{"name", "kettle"}, {"entityType", "thing"}, {"observations", {"boils"}}}}}};
  CommandOutput saved =
      McpRun({"--call", "create_entities", entities.dump(), "memory", "--dir", data, "-e",
              "PATH=" + PeersPath(), "-e", "MEMORY_FILE_PATH=" + memory, "--", "mcp-server-memory"},
             {"BRAVEBOT_BACKEND=bubblewrap"});
  EXPECT_EQ(saved.status, 0) << saved.err << saved.out;
  EXPECT_THAT(saved.out, Not(HasSubstr("EBUSY")));
  std::ifstream file(memory);
  EXPECT_THAT(std::string(std::istreambuf_iterator<char>(file), {}), HasSubstr("kettle"));
}

TEST_F(RealServersTest, EverythingIsGivenOnlyTheVariablesItWasGiven) {
  SKIP_WITHOUT_PEERS();
  CommandOutput run = McpRun({"--call", "get-env", "{}", "everything", "-e", "PATH=" + PeersPath(),
                              "-e", "GREETING=hello", "--", "mcp-server-everything"});
  ASSERT_EQ(run.status, 0) << run.err;
  auto environment = nlohmann::json::parse(ResultText(run), nullptr, false);
  ASSERT_TRUE(environment.is_object()) << run.out;
  std::vector<std::string> names;
  for (const auto& [name, value] : environment.items()) names.push_back(name);
  EXPECT_THAT(names, ::testing::ElementsAre("GREETING", "HOME", "PATH", "TMPDIR"));
  EXPECT_EQ(environment["GREETING"], "hello");
  EXPECT_THAT(environment["HOME"].get<std::string>(),
              HasSubstr(temporary_.Join("profile") + "/mcp-home/"));
  EXPECT_THAT(run.out, Not(HasSubstr("do-not-pass")));
}

TEST_F(RealServersTest, FilesystemWorksInItsDirectoryAndIsRefusedTheHome) {
  SKIP_WITHOUT_PEERS();
  const std::string data = temporary_.Join("data");
  std::filesystem::create_directories(data);
  std::ofstream(data + "/hello.txt") << "hello";
  const std::string secret = Home() + "/secret.txt";
  std::ofstream(secret) << "private";
  ::chmod(secret.c_str(), 0644);
  // The server is told it may use the home too; the confinement says no.
  const std::vector<std::string> server = {
      "fs", "--dir", data, "-e", "PATH=" + PeersPath(), "--", "mcp-server-filesystem",
      data, Home()};
  auto call = [&](const std::string& tool, const nlohmann::json& arguments) {
    std::vector<std::string> words = {"--call", tool, arguments.dump()};
    words.insert(words.end(), server.begin(), server.end());
    return McpRun(words);
  };

  CommandOutput listed = call("list_directory", {{"path", data}});
  ASSERT_EQ(listed.status, 0) << listed.err;
  EXPECT_THAT(ResultText(listed), HasSubstr("hello.txt"));

  CommandOutput written = call("write_file", {{"path", data + "/new.txt"}, {"content", "made"}});
  ASSERT_EQ(written.status, 0) << written.err << written.out;
  std::ifstream made(data + "/new.txt");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(made), {}), "made");

  CommandOutput refused = call("read_text_file", {{"path", secret}});
  EXPECT_NE(refused.status, 0);
  if (LandlockAbi() >= 9) {
    EXPECT_THAT(refused.out, HasSubstr("EACCES"));
  } else {
    // Below Landlock ABI 9 the home is hidden from it (profiles/
    // socket_mask_plan.h): an empty mount, which Landlock refuses it to list,
    // or, where /tmp holds it, not there at all, and then the server refuses
    // in its own words a path it cannot find among the directories it was
    // given.
    EXPECT_THAT(refused.out,
                ::testing::AnyOf(HasSubstr("EACCES"), HasSubstr("outside allowed directories")));
  }
  EXPECT_THAT(refused.out, Not(HasSubstr("private")));
}

TEST_F(RealServersTest, StdioBridgeServesARealClient) {
  SKIP_WITHOUT_PEERS();
  ASSERT_TRUE(
      std::filesystem::exists(PeersDirectory() + "/client/node_modules/@modelcontextprotocol/sdk"));
  const std::string script = WriteSdkClientScript(temporary_.path(), "bridge-check.mjs", R"(
const { tools } = await client.listTools();
const sum = await client.callTool({ name: "get-sum", arguments: { a: 20, b: 22 } });
console.log(JSON.stringify({ count: tools.length, sum: sum.content[0].text }));
await client.close();
)");
  CommandOutput run = RunCommand(
      {"/usr/bin/node", script, OurProgram("mcp-run"), "--stdio", "everything", "-e",
       "PATH=" + PeersPath(), "--", "mcp-server-everything"},
      {"BRAVEBOT_HOME=" + temporary_.Join("profile"), "HOME=" + Home(), "PATH=/usr/bin:/bin"},
      temporary_.path());
  ASSERT_EQ(run.status, 0) << run.err;
  auto answer = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_TRUE(answer.is_object()) << run.out;
  EXPECT_EQ(answer["count"], 13);
  EXPECT_EQ(answer["sum"], "The sum of 20 and 22 is 42.");
}

TEST_F(RealServersTest, StdioBridgeCarriesLargeMessagesBothWaysAtOnce) {
  SKIP_WITHOUT_PEERS();
  const std::string script = WriteSdkClientScript(temporary_.path(), "flood.mjs", R"(
const texts = ["a", "b", "c"].map((letter) => letter.repeat(1 << 20));
const answers = await Promise.all(
  texts.map((text) => client.callTool({ name: "echo", arguments: { text } })));
console.log(JSON.stringify(answers.map((answer, i) => answer.content[0].text === texts[i])));
await client.close();
)");
  // Bounded, since a relay that stops one direction for the other hangs here.
  CommandOutput run = RunCommand(
      {"/usr/bin/timeout", "60", "/usr/bin/node", script, OurProgram("mcp-run"), "--stdio", "echo",
       "--", OurProgram("fake_servers/echo_server"), "synchronous"},
      {"BRAVEBOT_HOME=" + temporary_.Join("profile"), "HOME=" + Home(), "PATH=/usr/bin:/bin"},
      temporary_.path());
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "[true,true,true]\n");
}

}  // namespace
}  // namespace bravebot::testing
