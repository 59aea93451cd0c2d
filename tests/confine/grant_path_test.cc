#include "confine/grant_path.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/fake_filesystem.h"

namespace bravebot {
namespace {

using testing::FakeFileSystem;
using ::testing::HasSubstr;

class GrantPathTest : public ::testing::Test {
 protected:
  GrantPathTest() {
    fs_.AddDirectory("/usr/bin");
    fs_.AddLink("/bin", "usr/bin");
    fs_.AddDirectory("/srv/a/bin");
    fs_.AddDirectory("/home/u/.ssh");
    fs_.AddFile("/srv/a/lib/pkg/cli.js");
  }

  Result<std::string> Resolve(const std::string& path) {
    return ResolveGrantPath(path, {"/srv/a", "/tmp"}, fs_);
  }

  FakeFileSystem fs_;
};

TEST_F(GrantPathTest, LinksOutsideEveryWritableDirectoryAreFollowed) {
  EXPECT_EQ(*Resolve("/bin"), "/usr/bin");
  // ".." after a link is taken where the link leads, as the kernel takes it.
  EXPECT_EQ(*Resolve("/bin/../bin"), "/usr/bin");
  EXPECT_FALSE(Resolve("/bin/../srv").ok());
  EXPECT_EQ(*Resolve("/srv/./a//bin/"), "/srv/a/bin");
}

TEST_F(GrantPathTest, ALinkInAWritableDirectoryMayLeadOnlyInsideIt) {
  fs_.AddLink("/srv/a/bin/cli", "../lib/pkg/cli.js");
  EXPECT_EQ(*Resolve("/srv/a/bin/cli"), "/srv/a/lib/pkg/cli.js");

  fs_.AddLink("/srv/a/keys", "/home/u/.ssh");
  Result<std::string> out = Resolve("/srv/a/keys");
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().code(), ErrorCode::kRefused);
  EXPECT_THAT(out.error().message(),
              HasSubstr("the link /srv/a/keys to /home/u/.ssh, out of /srv/a, a directory a "
                        "server may write"));
}

TEST_F(GrantPathTest, ALinkThatLeavesAndComesBackIsJudgedByWhereItEnds) {
  fs_.AddLink("/srv/a/round", "/usr/../srv/a/bin");
  EXPECT_EQ(*Resolve("/srv/a/round"), "/srv/a/bin");
}

TEST_F(GrantPathTest, AWritableDirectoryThatIsItselfALinkIsThePersons) {
  fs_.AddLink("/tmp", "/var/tmp");
  fs_.AddDirectory("/var/tmp");
  EXPECT_EQ(*Resolve("/tmp"), "/var/tmp");
}

TEST_F(GrantPathTest, MissingPartsAndLoopsAreRefused) {
  EXPECT_EQ(Resolve("/srv/missing").error().code(), ErrorCode::kNotFound);
  fs_.AddFile("/srv/file");
  EXPECT_EQ(Resolve("/srv/file/below").error().code(), ErrorCode::kNotFound);
  fs_.AddLink("/srv/loop", "/srv/loop");
  EXPECT_THAT(Resolve("/srv/loop").error().message(), HasSubstr("too many links"));
}

TEST_F(GrantPathTest, TheWritableDirectoryHoldingAPathIsNamed) {
  EXPECT_EQ(ServerWritableDirectoryHolding("/srv/a/bin", {"/tmp", "/srv/a"}), "/srv/a");
  EXPECT_EQ(ServerWritableDirectoryHolding("/srv/a", {"/srv/a"}), "");
  EXPECT_EQ(ServerWritableDirectoryHolding("/srv/ab", {"/srv/a"}), "");
}

}  // namespace
}  // namespace bravebot
