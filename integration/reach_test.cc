// bravebot-mcp reach: the reach as a person reads it, as a script reads it,
// and proven by the probe under the server's own confinement.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

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

TEST_F(ReachTest, AnHttpServerHasNothingHereToConfine) {
  ASSERT_EQ(Mcp({"add", "docs", "--http", "https://mcp.example.com/mcp"}).status, 0);
  CommandOutput reach = Mcp({"reach", "docs"});
  EXPECT_EQ(reach.status, 1);
  EXPECT_THAT(reach.err, HasSubstr("nothing of it runs here to confine"));
}

}  // namespace
}  // namespace bravebot::testing
