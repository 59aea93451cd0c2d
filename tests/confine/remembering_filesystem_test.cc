#include "confine/remembering_filesystem.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/fake_filesystem.h"

namespace bravebot {
namespace {

using ::testing::ElementsAre;

// The fake machine, counting the questions it is asked.
class CountingFileSystem : public testing::FakeFileSystem {
 public:
  FileKind KindOf(const std::string& path, Follow follow) const override {
    ++asked;
    return FakeFileSystem::KindOf(path, follow);
  }
  std::optional<std::string> LinkTarget(const std::string& path) const override {
    ++asked;
    return FakeFileSystem::LinkTarget(path);
  }
  std::vector<std::string> ListDirectory(const std::string& path) const override {
    ++asked;
    return FakeFileSystem::ListDirectory(path);
  }
  mutable int asked = 0;
};

TEST(RememberingFileSystemTest, EachQuestionIsAskedOnceAndAnsweredAlike) {
  CountingFileSystem fs;
  fs.AddDirectory("/etc/ssl");
  fs.AddLink("/etc/mtab", "../proc/self/mounts");
  const RememberingFileSystem remembered(fs);
  for (int again = 0; again < 3; ++again) {
    EXPECT_EQ(remembered.KindOf("/etc/mtab", Follow::kNo), FileKind::kLink);
    EXPECT_EQ(remembered.LinkTarget("/etc/mtab"), "../proc/self/mounts");
    EXPECT_THAT(remembered.ListDirectory("/etc"), ElementsAre("mtab", "ssl"));
    EXPECT_EQ(remembered.KindOf("/etc/missing", Follow::kNo), FileKind::kMissing);
  }
  EXPECT_EQ(fs.asked, 4);
}

TEST(RememberingFileSystemTest, FollowingALinkIsAnotherQuestion) {
  CountingFileSystem fs;
  fs.AddDirectory("/usr/lib");
  fs.AddLink("/lib", "usr/lib");
  const RememberingFileSystem remembered(fs);
  EXPECT_EQ(remembered.KindOf("/lib", Follow::kNo), FileKind::kLink);
  EXPECT_EQ(remembered.KindOf("/lib", Follow::kYes), FileKind::kDirectory);
  EXPECT_EQ(fs.asked, 2);
}

}  // namespace
}  // namespace bravebot
