// A runner that fetches its package as it starts, confined: npx given only
// PATH fills the server's private home with its cache and starts the server.
// Needs the npm registry.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "integration/peers.h"
#include "integration/run_command.h"
#include "tests/temporary_directory.h"

namespace bravebot::testing {
namespace {

using ::testing::HasSubstr;

TEST(NetworkTest, NpxFetchesIntoThePrivateHomeAndTheServerStarts) {
  if (!std::filesystem::exists("/usr/bin/npx")) GTEST_SKIP() << "npx is not installed in /usr/bin";
  TemporaryDirectory temporary;
  ::chmod(temporary.path().c_str(), 0755);
  const std::string profile = temporary.Join("profile");
  CommandOutput run =
      RunCommand({OurProgram("mcp-run"), "--timeout", "300", "everything", "-e", "PATH", "--",
                  "npx", "-y", "@modelcontextprotocol/server-everything@2026.8.31"},
                 {"BRAVEBOT_HOME=" + profile, "HOME=" + temporary.path(), "PATH=/usr/bin:/bin"},
                 temporary.path());
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("everything offers 13 tools"));
  // npx kept its cache in the server's own home, and only there.
  bool cache_in_home = false;
  for (const auto& home : std::filesystem::directory_iterator(profile + "/mcp-home")) {
    cache_in_home = cache_in_home || std::filesystem::exists(home.path() / ".npm");
  }
  EXPECT_TRUE(cache_in_home);
  EXPECT_FALSE(std::filesystem::exists(temporary.Join(".npm")));
}

}  // namespace
}  // namespace bravebot::testing
