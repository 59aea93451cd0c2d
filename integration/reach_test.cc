// bravebot-mcp reach: the reach as a person reads it, as a script reads it,
// and proven by the probe under the server's own confinement.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "integration/peers.h"
#include "integration/profile_fixture.h"

namespace bravebot::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class ReachTest : public ProfileTest {
 protected:
  void SetUp() override {
    key_ = temporary_.Join("api-key");
    std::ofstream(key_) << "sk-live-canary-3141";
    ASSERT_EQ(Mcp({"add", "cat", "-e", "KEY_FILE=" + key_, "-e", "TOKEN=sk-live-canary-3141", "--",
                   "/bin/cat"})
                  .status,
              0);
  }
  // bravebot-mcp WORDS with BRAVEBOT_BACKEND=bubblewrap in its environment.
  CommandOutput UnderBubblewrap(std::vector<std::string> words) const {
    words.insert(words.begin(), OurProgram("bravebot-mcp"));
    std::vector<std::string> environment = Environment();
    environment.push_back("BRAVEBOT_BACKEND=bubblewrap");
    return RunCommand(words, environment, temporary_.path());
  }

  std::string key_;
};

TEST_F(ReachTest, SaysEveryItemWithItsReasonAndNoValue) {
  CommandOutput reach = Mcp({"reach", "cat"});
  ASSERT_EQ(reach.status, 0) << reach.err;
  EXPECT_THAT(reach.out, HasSubstr("    runs /bin/cat\n"));
  EXPECT_THAT(reach.out, HasSubstr("    TOKEN (stored)\n"));
  EXPECT_THAT(reach.out, HasSubstr("    HOME (its private home)\n"));
  EXPECT_THAT(reach.out, HasSubstr(key_ + "  a file add showed it may read\n"));
  EXPECT_THAT(reach.out, HasSubstr("/etc/shadow: a secret of the system's"));
  EXPECT_THAT(reach.out, HasSubstr("the network: every address, by IP"));
  EXPECT_THAT(reach.out, HasSubstr("this kernel enforces it with Landlock ABI"));
  EXPECT_THAT(reach.out, Not(HasSubstr("sk-live-canary-3141")));
}

// Every machine has more than four entries in /etc given for `system
// configuration`: one line by default, each one with --verbose, while what
// is given beyond the system (the file add showed) stays its own line.
TEST_F(ReachTest, LongRunsOfSystemPathsAreOneLineUnlessVerbose) {
  CommandOutput summary = Mcp({"reach", "cat"});
  ASSERT_EQ(summary.status, 0) << summary.err;
  CommandOutput verbose = Mcp({"reach", "cat", "--verbose"});
  ASSERT_EQ(verbose.status, 0) << verbose.err;
  const auto count = [](const std::string& text, const std::string& what) {
    size_t found = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
      ++found;
    }
    return found;
  };
  EXPECT_EQ(count(summary.out, "system configuration"), 1U) << summary.out;
  EXPECT_THAT(summary.out, ::testing::ContainsRegex(
                               "\n    [0-9]+ entries in /etc +system configuration \\(--verbose "
                               "lists each\\)\n"));
  EXPECT_GT(count(verbose.out, "system configuration"), 4U);
  EXPECT_THAT(verbose.out, Not(HasSubstr("entries in /etc")));
  EXPECT_THAT(summary.out, HasSubstr(key_ + "  a file add showed it may read\n"));
  EXPECT_LT(count(summary.out, "\n"), count(verbose.out, "\n"));
}

TEST_F(ReachTest, JsonForScripts) {
  CommandOutput reach = Mcp({"reach", "cat", "--json"});
  ASSERT_EQ(reach.status, 0) << reach.err;
  auto json = nlohmann::json::parse(reach.out, nullptr, false);
  ASSERT_TRUE(json.is_object());
  EXPECT_EQ(json["program"], "/bin/cat");
  EXPECT_GT(json["landlock_abi"].get<int>(), 0);
  EXPECT_THAT(reach.out, Not(HasSubstr("sk-live-canary-3141")));
}

TEST_F(ReachTest, TheProbeAgreesWithTheReach) {
  CommandOutput probe = Mcp({"reach", "cat", "--probe"});
  EXPECT_EQ(probe.status, 0) << probe.out << probe.err;
  EXPECT_THAT(probe.out, HasSubstr("denied   read a file outside its reach\n"));
  EXPECT_THAT(probe.out, HasSubstr("allowed  read a file it may read: " + key_ + "\n"));
  EXPECT_THAT(probe.out, HasSubstr("every attempt came out as the reach says\n"));
  CommandOutput json = Mcp({"reach", "cat", "--probe", "--json"});
  EXPECT_EQ(nlohmann::json::parse(json.out)["contradictions"], 0);
}

// A real server's reach (server-everything, a node program from .peers/,
// with what node needs of the machine), proven by its probe: the kernel
// matrix runs this under every row (docs/kernels.md).
TEST_F(ReachTest, TheProbeOfARealServerAgreesWithTheReach) {
  SKIP_WITHOUT_PEERS();
  ASSERT_EQ(Mcp({"add", "everything", "-e", "PATH=" + PeersDirectory() + "/bin:/usr/bin:/bin", "--",
                 "mcp-server-everything"})
                .status,
            0);
  CommandOutput probe = Mcp({"reach", "everything", "--probe"});
  EXPECT_EQ(probe.status, 0) << probe.out << probe.err;
  // Whichever backend the machine chose: Landlock refuses the read,
  // bubblewrap leaves the path out.
  EXPECT_THAT(probe.out, HasSubstr("denied   "));
  EXPECT_THAT(probe.out, Not(HasSubstr("contradict")));
  EXPECT_THAT(probe.out, HasSubstr("every attempt came out as the reach says\n"));
}

TEST_F(ReachTest, UnderBubblewrapItSaysSoAndWhatBubblewrapCannotGive) {
  CommandOutput reach = UnderBubblewrap({"reach", "cat"});
  ASSERT_EQ(reach.status, 0) << reach.err;
  EXPECT_THAT(reach.out, HasSubstr("bubblewrap 0."));
  EXPECT_THAT(reach.out, HasSubstr(" (/usr/bin/bwrap) enforces it with binds"));
  EXPECT_THAT(reach.out,
              HasSubstr("paths outside its binds do not exist for it (no look at them)"));
  EXPECT_THAT(reach.out, HasSubstr("no look at a path outside what it may reach"));
  EXPECT_THAT(reach.out, Not(HasSubstr("Landlock ABI")));
  EXPECT_THAT(reach.out, Not(HasSubstr("sk-live-canary-3141")));
  auto json =
      nlohmann::json::parse(UnderBubblewrap({"reach", "cat", "--json"}).out, nullptr, false);
  ASSERT_TRUE(json.is_object());
  EXPECT_EQ(json["backend"], "bubblewrap");
  EXPECT_EQ(json["look_at_any_path"], false);
}

TEST_F(ReachTest, UnderBubblewrapTheProbeAgreesWithTheReach) {
  CommandOutput probe = UnderBubblewrap({"reach", "cat", "--probe"});
  EXPECT_EQ(probe.status, 0) << probe.out << probe.err;
  EXPECT_THAT(probe.out, HasSubstr("under bubblewrap 0."));
  EXPECT_THAT(probe.out, HasSubstr("denied   look at a path outside its reach\n"));
  EXPECT_THAT(probe.out, HasSubstr("allowed  read a file it may read: " + key_ + "\n"));
  EXPECT_THAT(probe.out, HasSubstr("every attempt came out as the reach says\n"));
}

TEST_F(ReachTest, ABackendThatIsNoneOfTheTwoStartsNothingAndSaysTheValues) {
  std::vector<std::string> environment = Environment();
  environment.push_back("BRAVEBOT_BACKEND=firejail");
  CommandOutput reach =
      RunCommand({OurProgram("bravebot-mcp"), "reach", "cat"}, environment, temporary_.path());
  EXPECT_THAT(reach.out, HasSubstr("the server is not started: BRAVEBOT_BACKEND is \"firejail\": "
                                   "it may be landlock or bubblewrap"));
  CommandOutput run = RunCommand({OurProgram("mcp-run"), "cat"}, environment, temporary_.path());
  EXPECT_EQ(run.status, 1);
  EXPECT_THAT(run.err, HasSubstr("cat was not started: BRAVEBOT_BACKEND is \"firejail\""));
}

TEST_F(ReachTest, AnHttpServerHasNothingHereToConfine) {
  ASSERT_EQ(Mcp({"add", "docs", "--http", "https://mcp.example.com/mcp"}).status, 0);
  CommandOutput reach = Mcp({"reach", "docs"});
  EXPECT_EQ(reach.status, 1);
  EXPECT_THAT(reach.err, HasSubstr("nothing of it runs here to confine"));
}

}  // namespace
}  // namespace bravebot::testing
