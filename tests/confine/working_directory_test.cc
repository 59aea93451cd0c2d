#include "confine/working_directory.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/fake_filesystem.h"

namespace bravebot {
namespace {

using testing::FakeFileSystem;
using ::testing::HasSubstr;

class WorkingDirectoryTest : public ::testing::Test {
 protected:
  WorkingDirectoryTest() {
    fs_.AddDirectory("/home/u/.bravebot/mcp-home");
    fs_.AddDirectory("/home/u/work/data");
    fs_.AddDirectory("/srv/a/b");
    fs_.AddDirectory("/etc/ssh");
    fs_.AddDirectory("/var/lib/app");
    fs_.AddDirectory("/run/user/1000");
    fs_.AddDirectory("/tmp/work");
    fs_.AddDirectory("/root/.ssh");
  }

  std::string Refusal(const std::string& directory) {
    Result<std::string> checked = CheckWorkingDirectory(directory, limits_, fs_);
    return checked.ok() ? "" : checked.error().message();
  }

  FakeFileSystem fs_;
  WholeDirectoryLimits limits_{"/home/u", {"/home/u/.bravebot", "/home/u/.bravebot"}, "/tmp", ""};
};

TEST_F(WorkingDirectoryTest, ADirectoryOfItsOwnIsResolvedAndKept) {
  fs_.AddLink("/home/u/d", "work/data");
  EXPECT_EQ(*CheckWorkingDirectory("/home/u/d", limits_, fs_), "/home/u/work/data");
  fs_.AddDirectory("/var/tmp/work");
  EXPECT_EQ(*CheckWorkingDirectory("/var/tmp/work", limits_, fs_), "/var/tmp/work");
  EXPECT_EQ(*CheckWorkingDirectory("/tmp/work", limits_, fs_), "/tmp/work");
}

TEST_F(WorkingDirectoryTest, TheHomeWhatHoldsItAndTheTemporaryDirectoryAreRefused) {
  EXPECT_THAT(Refusal("/home/u"), HasSubstr("it is your home"));
  EXPECT_THAT(Refusal("/home"), HasSubstr("it holds your home"));
  EXPECT_THAT(Refusal("/tmp"), HasSubstr("temporary directory"));
  EXPECT_THAT(Refusal("/home/u/.bravebot/mcp-home"), HasSubstr("could approve itself"));
}

TEST_F(WorkingDirectoryTest, TheSystemsOwnDirectoriesAreRefused) {
  for (const char* directory : {"/", "/etc", "/etc/ssh", "/usr", "/run", "/var", "/var/tmp",
                                "/var/lib/app", "/run/user/1000"}) {
    fs_.AddDirectory(directory);
    EXPECT_THAT(Refusal(directory), HasSubstr("one of the system's own directories")) << directory;
  }
}

// A server run by root that may write one of these runs code as root,
// unconfined: cron runs the crontabs, dpkg the maintainer scripts in its
// info directory at the next upgrade, systemd the units in /run/systemd.
TEST_F(WorkingDirectoryTest, DirectoriesTheSystemRunsProgramsFromAreRefused) {
  for (const char* directory : {"/var/spool/cron", "/var/spool/cron/crontabs", "/var/lib/dpkg/info",
                                "/run/systemd/system"}) {
    fs_.AddDirectory(directory);
    EXPECT_THAT(Refusal(directory), HasSubstr("one of the system's own directories")) << directory;
  }
}

TEST_F(WorkingDirectoryTest, AtEachStartItMustStillBeTheDirectoryAddResolved) {
  EXPECT_EQ(*CheckDeclaredWorkingDirectory("/srv/a/b", limits_, fs_), "/srv/a/b");
  // Server A, whose directory holds B's, swaps B's for a link.
  FakeFileSystem swapped;
  swapped.AddDirectory("/root/.ssh");
  swapped.AddLink("/srv/a/b", "/root/.ssh");
  Result<std::string> checked = CheckDeclaredWorkingDirectory("/srv/a/b", limits_, swapped);
  ASSERT_FALSE(checked.ok());
  EXPECT_THAT(checked.error().message(),
              HasSubstr("/srv/a/b now leads through a link to /root/.ssh"));
}

TEST_F(WorkingDirectoryTest, SystemDirectoriesAreTheTreesAndTheFewThemselves) {
  EXPECT_TRUE(IsSystemDirectory("/lib64/x"));
  EXPECT_TRUE(IsSystemDirectory("/proc/1"));
  EXPECT_TRUE(IsSystemDirectory("/var/lib/app"));
  EXPECT_FALSE(IsSystemDirectory("/var/tmp/app"));
  EXPECT_FALSE(IsSystemDirectory("/library"));
  EXPECT_FALSE(IsSystemDirectory("/srv"));
}

}  // namespace
}  // namespace bravebot
