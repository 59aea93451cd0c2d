#include "confine/repository.h"

#include <gtest/gtest.h>

#include "tests/fake_filesystem.h"

namespace bravebot {
namespace {

using testing::FakeFileSystem;

TEST(RepositoryTest, FindsAGitDirectoryAtOrAbove) {
  FakeFileSystem fs;
  fs.AddDirectory("/home/u/app/.git");
  fs.AddDirectory("/home/u/app/src/deep");
  fs.AddDirectory("/srv/data");
  EXPECT_EQ(FindEnclosingRepository("/home/u/app", fs), "/home/u/app");
  EXPECT_EQ(FindEnclosingRepository("/home/u/app/src/deep", fs), "/home/u/app");
  EXPECT_EQ(FindEnclosingRepository("/srv/data", fs), std::nullopt);
  EXPECT_EQ(FindEnclosingRepository("/home/u", fs), std::nullopt);
}

TEST(RepositoryTest, AGitFileCountsOnlyWhenItPointsToAGitDirectory) {
  FakeFileSystem fs;
  fs.AddFile("/w/worktree/.git", "gitdir: /repos/main/.git/worktrees/w\n");
  fs.AddFile("/w/other/.git", "just a file");
  EXPECT_EQ(FindEnclosingRepository("/w/worktree", fs), "/w/worktree");
  EXPECT_EQ(FindEnclosingRepository("/w/other", fs), std::nullopt);
}

TEST(RepositoryTest, FindsABareRepository) {
  FakeFileSystem fs;
  fs.AddFile("/srv/repo.git/HEAD", "ref: refs/heads/main\n");
  fs.AddDirectory("/srv/repo.git/objects");
  fs.AddDirectory("/srv/repo.git/refs");
  fs.AddDirectory("/srv/repo.git/hooks/x");
  fs.AddFile("/srv/notbare/HEAD", "");
  fs.AddDirectory("/srv/notbare/objects");
  EXPECT_EQ(FindEnclosingRepository("/srv/repo.git/hooks/x", fs), "/srv/repo.git");
  EXPECT_EQ(FindEnclosingRepository("/srv/notbare", fs), std::nullopt);
}

TEST(RepositoryTest, AHomeThatIsAWorkTreeHoldsEveryDirectoryInIt) {
  FakeFileSystem fs;
  fs.AddDirectory("/home/u/.git");
  fs.AddDirectory("/home/u/servers/weather");
  EXPECT_EQ(FindEnclosingRepository("/home/u/servers/weather", fs), "/home/u");
}

TEST(RepositoryTest, AGitLinkToADirectoryCounts) {
  FakeFileSystem fs;
  fs.AddDirectory("/repos/real.git");
  fs.AddLink("/w/app/.git", "/repos/real.git");
  EXPECT_EQ(FindEnclosingRepository("/w/app", fs), "/w/app");
}

}  // namespace
}  // namespace bravebot
