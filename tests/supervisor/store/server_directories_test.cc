#include "supervisor/store/server_directories.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/fs.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/temporary_directory.h"

namespace bravebot {
namespace {

using testing::TemporaryDirectory;
namespace fs = std::filesystem;

// Puts `path`'s modification time two minutes back, as a run's directory
// left a while ago has it.
void MakeOld(const std::string& path) {
  struct timespec times[2];
  ::clock_gettime(CLOCK_REALTIME, &times[0]);
  times[0].tv_sec -= 120;
  times[1] = times[0];
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, AT_SYMLINK_NOFOLLOW), 0) << path;
}

// Whether a lock could be taken on the directory `path` now, as a sweep
// takes one.
bool Unheld(const std::string& path) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  return fd.valid() && ::flock(fd.get(), LOCK_EX | LOCK_NB) == 0;
}

// A run directory as a killed run leaves it: made, written to, let go.
std::string LeftBehind(const std::string& root) {
  Result<RunDirectory> made = MakeRunDirectory(root);
  EXPECT_TRUE(made.ok());
  if (!made.ok()) return "";
  fs::create_directories(made->path + "/home/.cache/deep");
  std::ofstream(made->path + "/home/.cache/deep/state") << "kept by the server";
  std::string path = made->path;
  made->hold.reset();
  MakeOld(path);
  return path;
}

TEST(RunDirectoryTest, IsPrivateAndHeldWhileItsRunLasts) {
  TemporaryDirectory root;
  Result<RunDirectory> made = MakeRunDirectory(root.path());
  ASSERT_TRUE(made.ok()) << made.error().message();
  EXPECT_EQ(fs::path(made->path).parent_path(), fs::canonical(root.path()));
  struct stat status;
  ASSERT_EQ(::stat(made->path.c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 0777, 0700u);
  EXPECT_FALSE(Unheld(made->path));
  made->hold.reset();
  EXPECT_TRUE(Unheld(made->path));
}

TEST(RunDirectoryTest, ASweepRemovesWhatAKilledRunLeftAndNothingElse) {
  TemporaryDirectory root;
  TemporaryDirectory outside;
  std::ofstream(outside.Join("precious")) << "the user's";
  const std::string left = LeftBehind(root.path());
  ASSERT_FALSE(left.empty());
  // A link the server planted in its directory is removed, not followed.
  fs::create_symlink(outside.path(), left + "/home/link");

  Result<RunDirectory> live = MakeRunDirectory(root.path());
  ASSERT_TRUE(live.ok());
  MakeOld(live->path);
  Result<RunDirectory> young = MakeRunDirectory(root.path());
  ASSERT_TRUE(young.ok());
  const std::string young_path = young->path;
  young->hold.reset();
  // Not a run directory's name, or not a directory: left alone.
  fs::create_directories(root.Join("bravebot-run-notes-of-mine"));
  MakeOld(root.Join("bravebot-run-notes-of-mine"));
  fs::create_symlink(outside.path(), root.Join("bravebot-run-AbCdEf"));
  MakeOld(root.Join("bravebot-run-AbCdEf"));
  // Named as a run made before runs held their directory named it: perhaps
  // one still running, started before an upgrade.
  fs::create_directories(root.Join("bravebot-mcp-GhIjKl"));
  MakeOld(root.Join("bravebot-mcp-GhIjKl"));

  SweepRunDirectories(root.path());

  EXPECT_FALSE(fs::exists(fs::symlink_status(left))) << left;
  EXPECT_TRUE(fs::exists(live->path)) << "a held one stays";
  EXPECT_TRUE(fs::exists(young_path)) << "one changed in the last minute stays";
  EXPECT_TRUE(fs::exists(root.Join("bravebot-run-notes-of-mine")));
  EXPECT_TRUE(fs::is_symlink(root.Join("bravebot-run-AbCdEf")));
  EXPECT_TRUE(fs::exists(root.Join("bravebot-mcp-GhIjKl")));
  EXPECT_TRUE(fs::exists(outside.Join("precious")));
}

TEST(RunDirectoryTest, ASweepRemovesOneItsServerDatedAheadOrClosedToItsUser) {
  TemporaryDirectory root;
  const std::string ahead = LeftBehind(root.path());
  const std::string closed = LeftBehind(root.path());
  ASSERT_FALSE(ahead.empty());
  ASSERT_FALSE(closed.empty());
  // A server may set its own directory's times and rights before it dies.
  struct timespec times[2];
  ::clock_gettime(CLOCK_REALTIME, &times[0]);
  times[0].tv_sec += 365 * 24 * 3600;
  times[1] = times[0];
  ASSERT_EQ(::utimensat(AT_FDCWD, ahead.c_str(), times, 0), 0);
  ASSERT_EQ(::chmod(closed.c_str(), 0), 0);
  MakeOld(closed);
  SweepRunDirectories(root.path());
  EXPECT_FALSE(fs::exists(fs::symlink_status(ahead))) << ahead;
  EXPECT_FALSE(fs::exists(fs::symlink_status(closed))) << closed;
}

TEST(RunDirectoryTest, ASweepLeavesAnotherUsersAlone) {
  if (::geteuid() != 0) {
    GTEST_SKIP() << "only root can make a directory of another user's to sweep past";
  }
  TemporaryDirectory root;
  const std::string left = LeftBehind(root.path());
  ASSERT_FALSE(left.empty());
  ASSERT_EQ(::chown(left.c_str(), 65534, 65534), 0);
  MakeOld(left);
  SweepRunDirectories(root.path());
  EXPECT_TRUE(fs::exists(left + "/home/.cache/deep/state"));
  ASSERT_EQ(::chown(left.c_str(), 0, 0), 0);  // for the temporary directory's removal
}

// Sets or clears the immutable flag of the file `fd`; false where the
// filesystem has none.
bool SetImmutable(int fd, bool immutable) {
  int flags = 0;
  if (::ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0) return false;
  flags = immutable ? flags | FS_IMMUTABLE_FL : flags & ~FS_IMMUTABLE_FL;
  return ::ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0;
}

TEST(RunDirectoryTest, OneThatCannotGoHoldsUpNoOther) {
  if (::geteuid() != 0) GTEST_SKIP() << "only root can make a file immutable";
  TemporaryDirectory root;
  const std::string stuck = LeftBehind(root.path());
  // Many others, so that the stuck one is listed before most of them.
  std::vector<std::string> others;
  for (int i = 0; i < 20; ++i) others.push_back(LeftBehind(root.path()));
  const std::string pinned = stuck + "/home/.cache/deep/state";
  UniqueFd file(::open(pinned.c_str(), O_RDONLY | O_CLOEXEC));
  if (!file.valid() || !SetImmutable(file.get(), true)) {
    GTEST_SKIP() << "this filesystem makes no file immutable: " << std::strerror(errno);
  }
  MakeOld(stuck);
  SweepRunDirectories(root.path());
  EXPECT_TRUE(fs::exists(pinned));
  SetImmutable(file.get(), false);
  for (const std::string& path : others) EXPECT_FALSE(fs::exists(fs::symlink_status(path))) << path;
}

// Two sweeps at once, as two starts make them: neither stops at what the
// other removed under it.
TEST(RunDirectoryTest, TwoSweepsAtOnceRemoveEveryLeftOne) {
  TemporaryDirectory root;
  std::vector<std::string> left;
  for (int i = 0; i < 20; ++i) left.push_back(LeftBehind(root.path()));
  std::thread other([&] { SweepRunDirectories(root.path()); });
  SweepRunDirectories(root.path());
  other.join();
  for (const std::string& path : left) EXPECT_FALSE(fs::exists(fs::symlink_status(path))) << path;
}

// A server may leave a tree as wide and deep as it likes: it is removed
// whole, a directory of more subdirectories than are named at once too.
TEST(RunDirectoryTest, AWideAndDeepTreeGoesWhole) {
  TemporaryDirectory root;
  const std::string left = LeftBehind(root.path());
  ASSERT_FALSE(left.empty());
  for (int i = 0; i < 5000; ++i) fs::create_directory(left + "/wide" + std::to_string(i));
  std::string deep = left + "/deep";
  for (int i = 0; i < 100; ++i) {
    fs::create_directory(deep);
    std::ofstream(deep + "/file") << i;
    deep += "/d";
  }
  MakeOld(left);
  SweepRunDirectories(root.path());
  EXPECT_FALSE(fs::exists(fs::symlink_status(left))) << left;
}

// Where there is no PID namespace, a process of a killed run can outlive
// it and move the directory being emptied up the tree as it is: the climb
// back stops there, rather than go on above the run directory and remove
// what is beside it there.
TEST(RunDirectoryTest, TheClimbBackStopsWhereADirectoryWasMovedAway) {
  TemporaryDirectory base;
  const std::string run = base.Join("root/bravebot-run-AAAAAA");
  fs::create_directories(base.Join("precious/sub"));
  std::ofstream(base.Join("precious/sub/file")) << "the user's";
  fs::create_directories(run + "/a/BN/c/d");
  fs::create_directories(run + "/a/precious");
  // Enough to empty that the move comes while it is emptied.
  for (int i = 0; i < 20000; ++i) std::ofstream(run + "/a/BN/c/d/f" + std::to_string(i));
  UniqueFd watch(::inotify_init1(IN_CLOEXEC));
  ASSERT_TRUE(watch.valid());
  ASSERT_GE(::inotify_add_watch(watch.get(), (run + "/a/BN/c/d").c_str(), IN_OPEN), 0);
  std::thread stray([&] {
    char event[4096];
    if (::read(watch.get(), event, sizeof(event)) > 0) {
      ::rename((run + "/a/BN/c/d").c_str(), (run + "/d").c_str());
    }
  });
  RemoveRunDirectory(run);
  stray.join();
  EXPECT_TRUE(fs::exists(base.Join("precious/sub/file")));
}

TEST(RunDirectoryTest, ASweepInTheBackgroundRemovesWhatWasLeft) {
  TemporaryDirectory root;
  const std::string left = LeftBehind(root.path());
  ASSERT_FALSE(left.empty());
  SweepRunDirectoriesInBackground(root.path());
  for (int i = 0; i < 100 && fs::exists(fs::symlink_status(left)); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_FALSE(fs::exists(fs::symlink_status(left))) << left;
}

// Handed off, a run directory is removed on a thread of its own: the hand-off
// returns at once, the directory stays held (no sweep takes it) until it is
// gone, and the wait at an end says when every removal has ended.
TEST(RunDirectoryTest, ARemovalInTheBackgroundHoldsItUntilItIsGone) {
  TemporaryDirectory root;
  EXPECT_TRUE(AwaitRunDirectoryRemovals(std::chrono::milliseconds(0)));
  Result<RunDirectory> made = MakeRunDirectory(root.path());
  ASSERT_TRUE(made.ok()) << made.error().message();
  const std::string path = made->path;
  // Enough that removing it takes far longer than the checks below: names
  // linked to one file each, made much faster than as many files.
  for (int d = 0; d < 10; ++d) {
    const std::string directory = path + "/wide" + std::to_string(d);
    fs::create_directory(directory);
    std::ofstream(directory + "/0");
    for (int f = 1; f < 3000; ++f) {
      fs::create_hard_link(directory + "/0", directory + "/" + std::to_string(f));
    }
    fs::permissions(directory, fs::perms::none);
  }
  RemoveRunDirectoryInBackground(std::move(*made));
  EXPECT_FALSE(AwaitRunDirectoryRemovals(std::chrono::milliseconds(0)));
  EXPECT_FALSE(Unheld(path));
  EXPECT_TRUE(fs::exists(path));
  EXPECT_TRUE(AwaitRunDirectoryRemovals(std::chrono::seconds(60)));
  EXPECT_FALSE(fs::exists(fs::symlink_status(path))) << path;
}

}  // namespace
}  // namespace bravebot
