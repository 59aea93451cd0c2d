// One refresh of an entry at a time, and only of that entry (review 26,
// second round): a service whose token endpoint stalls holds up no other
// service's start.
#include "supervisor/store/token_refresh_lock.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <thread>
#include <vector>

#include "tests/temporary_directory.h"

namespace bravebot {
namespace {

using ::testing::HasSubstr;
using testing::TemporaryDirectory;

namespace fs = std::filesystem;

class TokenRefreshLockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<ProfileDirectory> opened = ProfileDirectory::Open(temporary_.Join("p"), Create::kYes);
    ASSERT_TRUE(opened) << opened.error().message();
    profile_.emplace(std::move(*opened));
  }

  static StoredToken Entry(const std::string& alias) {
    return {.alias = alias, .digest = std::string(64, 'd'), .origin = "https://mcp.example"};
  }

  TemporaryDirectory temporary_;
  std::optional<ProfileDirectory> profile_;
};

TEST_F(TokenRefreshLockTest, AnEntryIsRefreshedByOneAtATimeAndHoldsUpNoOther) {
  Result<std::optional<TokenRefreshLock>> first = TryLockTokenRefresh(*profile_, Entry("svc"));
  ASSERT_TRUE(first && *first);
  Result<std::optional<TokenRefreshLock>> again = TryLockTokenRefresh(*profile_, Entry("svc"));
  ASSERT_TRUE(again);
  EXPECT_FALSE(*again);
  // Another service's entry, and the same service's at another origin.
  StoredToken elsewhere = Entry("svc");
  elsewhere.origin = "https://other.example";
  for (const StoredToken& other : {Entry("mail"), elsewhere}) {
    Result<std::optional<TokenRefreshLock>> lock = TryLockTokenRefresh(*profile_, other);
    ASSERT_TRUE(lock);
    EXPECT_TRUE(*lock) << other.alias << " " << other.origin;
  }
  // Not the profile's lock: a command that writes the directory is not held up.
  EXPECT_TRUE(profile_->Lock());
  const fs::path file = TokenRefreshLockPath(*profile_, Entry("svc"));
  EXPECT_EQ(fs::status(file).permissions(), fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(fs::status(file.parent_path()).permissions(), fs::perms::owner_all);
  first->reset();
  EXPECT_TRUE(*TryLockTokenRefresh(*profile_, Entry("svc")));
}

TEST_F(TokenRefreshLockTest, ItsFileGoesWithTheLockAndALockOnTheRemovedFileHoldsUpNothing) {
  const std::string path = TokenRefreshLockPath(*profile_, Entry("svc"));
  {
    Result<std::optional<TokenRefreshLock>> held = TryLockTokenRefresh(*profile_, Entry("svc"));
    ASSERT_TRUE(held && *held);
    EXPECT_TRUE(fs::exists(path));
  }
  EXPECT_FALSE(fs::exists(path)) << "a lock let go leaves its file";
  // A start that opened the file before it was removed, and locks it after,
  // holds a lock on nothing, and holds up nobody: the name is made anew.
  Result<std::optional<TokenRefreshLock>> held = TryLockTokenRefresh(*profile_, Entry("svc"));
  ASSERT_TRUE(held && *held);
  const std::string aside = temporary_.Join("aside");
  ASSERT_EQ(::link(path.c_str(), aside.c_str()), 0);
  held->reset();
  ASSERT_FALSE(fs::exists(path));
  Result<std::optional<FileLock>> on_the_old = FileLock::TryAcquire(AT_FDCWD, aside, aside);
  ASSERT_TRUE(on_the_old && *on_the_old);
  Result<std::optional<TokenRefreshLock>> next = TryLockTokenRefresh(*profile_, Entry("svc"));
  ASSERT_TRUE(next);
  EXPECT_TRUE(*next) << "the old file's lock is not the entry's";
}

// Each holder removes the file as it lets go, so a start may lock a file
// another just removed, while a third makes the name anew: the one that
// locked the removed file must take it for not held. Threads stand for the
// starts (flock is per open file, as it is between processes).
TEST_F(TokenRefreshLockTest, NeverTwoHoldersAtOnceWhileEachRemovesItsFile) {
  std::atomic<int> holders{0};
  std::atomic<int> overlaps{0};
  std::atomic<int> held{0};
  constexpr int kStarts = 4;
  std::vector<std::thread> starts;
  starts.reserve(kStarts);
  for (int start = 0; start < kStarts; ++start) {
    starts.emplace_back([&] {
      for (int attempt = 0; attempt < 5000; ++attempt) {
        Result<std::optional<TokenRefreshLock>> lock = TryLockTokenRefresh(*profile_, Entry("svc"));
        ASSERT_TRUE(lock) << lock.error().message();
        if (!*lock) continue;
        ++held;
        if (++holders > 1) ++overlaps;
        std::this_thread::yield();
        --holders;
      }
    });
  }
  for (std::thread& start : starts) start.join();
  EXPECT_EQ(overlaps.load(), 0);
  EXPECT_GT(held.load(), 0);
}

TEST_F(TokenRefreshLockTest, ALinkIsRefusedAndNeverFollowed) {
  const std::string elsewhere = temporary_.Join("elsewhere");
  ASSERT_EQ(::mkdir(elsewhere.c_str(), 0700), 0);
  const std::string directory = profile_->PathOf(kTokenRefreshLocksName);
  ASSERT_EQ(::symlink(elsewhere.c_str(), directory.c_str()), 0);
  Result<std::optional<TokenRefreshLock>> lock = TryLockTokenRefresh(*profile_, Entry("svc"));
  ASSERT_FALSE(lock);
  EXPECT_THAT(lock.error().message(), HasSubstr(directory + " is a link"));
  EXPECT_TRUE(fs::is_empty(elsewhere));
  ASSERT_EQ(::unlink(directory.c_str()), 0);
  // The lock file itself a link.
  ASSERT_EQ(::mkdir(directory.c_str(), 0700), 0);
  const std::string file = TokenRefreshLockPath(*profile_, Entry("svc"));
  ASSERT_EQ(::symlink((elsewhere + "/planted").c_str(), file.c_str()), 0);
  lock = TryLockTokenRefresh(*profile_, Entry("svc"));
  ASSERT_FALSE(lock);
  EXPECT_THAT(lock.error().message(), HasSubstr(file + " is a link"));
  EXPECT_TRUE(fs::is_empty(elsewhere));
}

}  // namespace
}  // namespace bravebot
