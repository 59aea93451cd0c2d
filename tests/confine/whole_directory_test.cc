#include "confine/whole_directory.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/fake_filesystem.h"

namespace bravebot {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;

// The profile directory in each place a person or a packager puts it.
struct Place {
  std::string profile;
  std::vector<std::string> never_whole;
  std::vector<std::string> holding;  // what is never whole only for what it holds
};

TEST(WholeDirectoryTest, NeverTheProfileDirectoryWhatIsInItOrWhatHoldsIt) {
  const Place places[] = {
      {"/home/u/.bravebot", {"/home/u/.bravebot", "/home/u/.bravebot/mcp-home/x"}, {"/"}},
      {"/opt/x", {"/opt/x", "/opt/x/mcp-home"}, {"/opt", "/"}},
      {"/srv/tools/bb", {"/srv/tools/bb"}, {"/srv/tools", "/srv"}},
  };
  for (const Place& place : places) {
    WholeDirectoryLimits limits{"/home/u", {place.profile, place.profile}, "/tmp", ""};
    for (const std::string& directory : place.never_whole) {
      EXPECT_THAT(WhyNotWhole(directory, limits), HasSubstr("profile directory")) << directory;
      EXPECT_FALSE(HoldsProtectedDirectory(directory, limits)) << directory;
    }
    for (const std::string& directory : place.holding) {
      EXPECT_THAT(WhyNotWhole(directory, limits), HasSubstr("holds")) << directory;
      EXPECT_TRUE(HoldsProtectedDirectory(directory, limits)) << directory;
    }
    EXPECT_THAT(WhyNotWhole("/usr", limits), IsEmpty());
    EXPECT_THAT(WhyNotWhole("/srv/tools/bbb", limits), IsEmpty());
  }
}

TEST(WholeDirectoryTest, TheProfileIsJudgedAsNamedAndAsResolved) {
  WholeDirectoryLimits limits{"/home/u", {"/home/u/.bravebot", "/data/bb"}, "/tmp", ""};
  EXPECT_THAT(WhyNotWhole("/data", limits), HasSubstr("holds the profile directory"));
  EXPECT_THAT(WhyNotWhole("/data/bb/mcp-home", limits), HasSubstr("profile directory"));
}

TEST(WholeDirectoryTest, NeverTheHomeOrWhatHoldsItOrTheTemporaryDirectory) {
  WholeDirectoryLimits limits{"/home/u", {"/home/u/.bravebot", "/home/u/.bravebot"}, "/tmp", ""};
  EXPECT_EQ(WhyNotWhole("/home/u", limits), "it is your home");
  EXPECT_EQ(WhyNotWhole("/home", limits), "it holds your home");
  EXPECT_THAT(WhyNotWhole("/tmp", limits), HasSubstr("temporary directory"));
  EXPECT_THAT(WhyNotWhole("/home/u/.local/bin", limits), IsEmpty());
  EXPECT_THAT(WhyNotWhole("/tmp/work", limits), IsEmpty());
}

// A home under a directory every server reads (/opt, here) holds the
// profile directory, yet is never granted around it: none of it is given.
TEST(WholeDirectoryTest, AProtectedDirectoryIsNeverGrantedAroundWhatItHolds) {
  WholeDirectoryLimits limits{
      "/opt/svc/home", {"/opt/svc/home/.bravebot", "/opt/svc/home/.bravebot"}, "/tmp", ""};
  EXPECT_EQ(WhyNotWhole("/opt/svc/home", limits), "it is your home");
  EXPECT_FALSE(HoldsProtectedDirectory("/opt/svc/home", limits));
  EXPECT_TRUE(HoldsProtectedDirectory("/opt/svc", limits));
  EXPECT_TRUE(HoldsProtectedDirectory("/opt", limits));
  WholeDirectoryLimits under_tmp{"/home/u", {"/tmp/bb", "/tmp/bb"}, "/tmp", ""};
  EXPECT_FALSE(HoldsProtectedDirectory("/tmp", under_tmp));
  EXPECT_FALSE(HoldsProtectedDirectory("/run", limits));
}

TEST(WholeDirectoryTest, TheHomeIsJudgedAsNamedAndWhereItsLinksLead) {
  testing::FakeFileSystem fs;
  fs.AddDirectory("/data/home/u/.local/bin");
  fs.AddLink("/home", "/data/home");
  WholeDirectoryLimits limits = LimitsFor("/home/u/", {"/p", "/p"}, "/tmp", fs);
  EXPECT_EQ(limits.user_home, "/home/u");
  EXPECT_EQ(WhyNotWhole("/home/u", limits), "it is your home");
  EXPECT_EQ(WhyNotWhole("/data/home/u", limits), "it is your home");
  EXPECT_EQ(WhyNotWhole("/data/home", limits), "it holds your home");
  EXPECT_THAT(WhyNotWhole("/data/home/u/.local", limits), IsEmpty());
}

TEST(WholeDirectoryTest, NoHomeLimitsNothing) {
  WholeDirectoryLimits limits{"", {"/p", "/p"}, "/tmp", ""};
  EXPECT_THAT(WhyNotWhole("/home", limits), IsEmpty());
}

// Given whole, one of these would hold every socket other programs keep
// there: a program in one gets only itself (a program at /run/p, say).
TEST(WholeDirectoryTest, NeverAPlaceWhereOtherProgramsKeepTheirSockets) {
  WholeDirectoryLimits limits{"/home/u", {"/home/u/.bravebot", "/home/u/.bravebot"}, "/tmp", ""};
  for (const std::string place : {"/run", "/var/run", "/dev/shm", "/var/lib"}) {
    EXPECT_THAT(WhyNotWhole(place, limits), HasSubstr("where other programs keep their sockets"))
        << place;
  }
  EXPECT_THAT(WhyNotWhole("/var", limits), HasSubstr("where other programs keep their sockets"));
  EXPECT_TRUE(HoldsProtectedDirectory("/var", limits));
  // Beneath one, a directory of its own may be given whole.
  EXPECT_THAT(WhyNotWhole("/var/lib/flatpak/exports/bin", limits), IsEmpty());
  EXPECT_THAT(WhyNotWhole("/run-tools", limits), IsEmpty());
}

}  // namespace
}  // namespace bravebot
