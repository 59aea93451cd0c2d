// mcp.json under concurrent writers, writers killed midway, and files that
// must be left alone, through the real command.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "integration/profile_fixture.h"

namespace bravebot::testing {
namespace {

using ::testing::HasSubstr;

class StoreTest : public ProfileTest {
 protected:
  std::vector<std::string> AddWords(const std::string& alias) const {
    return {OurProgram("bravebot-mcp"),    "add", alias, "-e",
            "TOKEN=value of " + alias,     "--",  "npx", "-y",
            "@example/" + alias + "@1.0.0"};
  }
};

TEST_F(StoreTest, FiftyConcurrentAddsLoseNothing) {
  constexpr int kWriters = 50;
  std::vector<pid_t> writers;
  for (int i = 0; i < kWriters; ++i) {
    writers.push_back(StartCommand(AddWords("server-" + std::to_string(i)), Environment()));
    ASSERT_GT(writers.back(), 0);
  }
  for (pid_t writer : writers) EXPECT_EQ(WaitForExit(writer), 0);

  CommandOutput list = Mcp({"list", "--json"});
  ASSERT_EQ(list.status, 0) << list.err;
  auto servers = nlohmann::json::parse(list.out)["servers"];
  ASSERT_EQ(servers.size(), static_cast<size_t>(kWriters));
  for (int i = 0; i < kWriters; ++i) {
    CommandOutput get = Mcp({"get", "server-" + std::to_string(i)});
    EXPECT_EQ(get.status, 0) << get.err;
  }
}

TEST_F(StoreTest, ApprovalsOutliveFiftyConcurrentWriters) {
  ASSERT_EQ(Mcp({"add", "kept", "--", "npx", "-y", "kept@1.0.0"}).status, 0);
  const std::string digest =
      nlohmann::json::parse(Mcp({"get", "kept", "--json"}).out)["digest"].get<std::string>();
  // Approved as the approve command writes it, with no field digests needed.
  std::ofstream(Profile() + "/mcp-approved")
      << "# bravebot-mcp approvals, format 1\nserver " << digest << " kept\n";
  std::vector<pid_t> writers;
  for (int i = 0; i < 50; ++i) {
    writers.push_back(StartCommand(AddWords("server-" + std::to_string(i)), Environment()));
  }
  for (pid_t writer : writers) EXPECT_EQ(WaitForExit(writer), 0);
  CommandOutput list = Mcp({"list", "--json"});
  ASSERT_EQ(list.status, 0) << list.err;
  auto servers = nlohmann::json::parse(list.out)["servers"];
  EXPECT_EQ(servers.size(), 51u);
  for (const auto& server : servers) {
    EXPECT_EQ(server["approved"], server["alias"] == "kept") << server["alias"];
  }
}

TEST_F(StoreTest, AWriterKilledAtAnyMomentLeavesAFileThatParses) {
  std::mt19937 random(20261129);
  std::uniform_int_distribution<int> delay_us(0, 4000);
  ASSERT_EQ(Mcp({"add", "first", "--", "npx"}).status, 0);
  int killed_midway = 0;
  for (int round = 0; round < 150; ++round) {
    pid_t writer = StartCommand(AddWords("killed-" + std::to_string(round % 7)), Environment());
    ASSERT_GT(writer, 0);
    ::usleep(static_cast<useconds_t>(delay_us(random)));
    ::kill(writer, SIGKILL);
    if (WaitForExit(writer) == 128 + SIGKILL) ++killed_midway;

    const std::string text = Slurp(DeclarationFile());
    ASSERT_TRUE(nlohmann::json::accept(text)) << "round " << round;
    ASSERT_TRUE(nlohmann::json::parse(text)["servers"].contains("first")) << "round " << round;
  }
  // Enough writers died before finishing for the test to mean something.
  EXPECT_GT(killed_midway, 20);
  // The next writer clears what the killed ones left half-written.
  ASSERT_EQ(Mcp({"add", "last", "--", "npx"}).status, 0);
  for (const auto& entry : std::filesystem::directory_iterator(Profile())) {
    EXPECT_THAT(entry.path().filename().string(), ::testing::Not(HasSubstr(".new-")));
  }
}

TEST_F(StoreTest, FilesArePrivate) {
  ASSERT_EQ(Mcp({"add", "weather", "--", "npx"}).status, 0);
  struct stat status;
  ASSERT_EQ(::stat(Profile().c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 07777, 0700u);
  ASSERT_EQ(::stat(DeclarationFile().c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 07777, 0600u);
}

TEST_F(StoreTest, AnUnparsableFileIsLeftByteForByte) {
  std::filesystem::create_directories(Profile());
  const std::string broken = "{\"version\": 1,\n \"servers\": {\"weather\": {,}}}\n";
  std::ofstream(DeclarationFile(), std::ios::binary) << broken;
  for (auto words : std::vector<std::vector<std::string>>{
           {"add", "maps", "--", "npx"}, {"remove", "weather"}, {"list"}, {"get", "weather"}}) {
    CommandOutput output = Mcp(words);
    EXPECT_EQ(output.status, 1) << words[0];
    EXPECT_THAT(output.err, HasSubstr(DeclarationFile() + " is not JSON")) << words[0];
    EXPECT_THAT(output.err, HasSubstr("line 2, column 26")) << words[0];
    EXPECT_EQ(Slurp(DeclarationFile()), broken) << words[0];
  }
}

TEST_F(StoreTest, ALinkPlantedAsTheFileIsNotWrittenThrough) {
  std::filesystem::create_directories(Profile());
  const std::string target = temporary_.Join("dotfiles-mcp.json");
  const std::string original = R"({"version": 1, "servers": {}})";
  std::ofstream(target) << original;
  ASSERT_EQ(::symlink(target.c_str(), DeclarationFile().c_str()), 0);
  CommandOutput output = Mcp({"add", "weather", "--", "npx"});
  EXPECT_EQ(output.status, 1);
  EXPECT_THAT(output.err, HasSubstr("is a link"));
  EXPECT_EQ(Slurp(target), original);
  EXPECT_TRUE(std::filesystem::is_symlink(DeclarationFile()));
}

TEST_F(StoreTest, TheProfileDirectoryItselfMayBeALink) {
  std::filesystem::create_directories(temporary_.Join("real"));
  ASSERT_EQ(::symlink(temporary_.Join("real").c_str(), Profile().c_str()), 0);
  ASSERT_EQ(Mcp({"add", "weather", "--", "npx"}).status, 0);
  EXPECT_TRUE(std::filesystem::exists(temporary_.Join("real/mcp.json")));
}

TEST_F(StoreTest, AFileNestedTooDeepIsRefusedByEveryCommandAndLeftAsItIs) {
  // A hand edit gone wrong: an argument 100,000 lists deep, which a copy or a
  // dump of the document would recurse through until the stack ran out.
  const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
  const std::string text =
      R"({"version": 1, "servers": {"weather": {"program": "npx", "args": )" + deep + "}}}";
  std::filesystem::create_directories(Profile());
  std::ofstream(DeclarationFile()) << text;
  const std::string refusal = DeclarationFile() +
                              " is nested deeper than 128 levels, which no file of bravebot-mcp "
                              "needs. It was left as it is";

  CommandOutput list = Mcp({"list"});
  EXPECT_EQ(list.status, 1);
  EXPECT_THAT(list.err, HasSubstr(refusal));
  CommandOutput add = Mcp({"add", "maps", "--", "npx"});
  EXPECT_EQ(add.status, 1);
  EXPECT_THAT(add.err, HasSubstr(refusal));
  CommandOutput run = RunCommand({OurProgram("mcp-run"), "weather"}, Environment());
  EXPECT_EQ(run.status, 1);
  EXPECT_THAT(run.err, HasSubstr(refusal));
  EXPECT_EQ(Slurp(DeclarationFile()), text);
}

TEST_F(StoreTest, AnUnusableEntryIsListedAndMakesListFail) {
  ASSERT_EQ(Mcp({"add", "weather", "--", "npx"}).status, 0);
  auto document = nlohmann::json::parse(Slurp(DeclarationFile()));
  document["servers"]["broken"] = {{"transport", "stdio"}, {"args", {"x"}}};
  std::ofstream(DeclarationFile()) << document.dump();

  CommandOutput list = Mcp({"list"});
  EXPECT_EQ(list.status, 1);
  EXPECT_THAT(list.out, HasSubstr("  broken   cannot be used: it names no program\n"));
  EXPECT_THAT(list.out, HasSubstr("  weather  stdio  unapproved  "));
  EXPECT_THAT(list.err, HasSubstr("1 entry of " + DeclarationFile() + " cannot be used"));
  // Another add keeps it as it was; remove takes it out.
  ASSERT_EQ(Mcp({"add", "maps", "--", "npx"}).status, 0);
  EXPECT_EQ(nlohmann::json::parse(Slurp(DeclarationFile()))["servers"]["broken"]["args"][0], "x");
  ASSERT_EQ(Mcp({"remove", "broken"}).status, 0);
  EXPECT_EQ(Mcp({"list"}).status, 0);
}

}  // namespace
}  // namespace bravebot::testing
