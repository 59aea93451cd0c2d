#include "base/version.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace bravebot {
namespace {

TEST(VersionTest, IsTheProjectsVersionAfterTheProgramsName) {
  EXPECT_THAT(std::string(BravebotVersion()), ::testing::MatchesRegex("[0-9]+\\.[0-9]+\\.[0-9]+"));
  EXPECT_EQ(VersionLine("mcp-run"), "mcp-run " + std::string(BravebotVersion()) + "\n");
}

}  // namespace
}  // namespace bravebot
