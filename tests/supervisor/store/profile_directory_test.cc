#include "supervisor/store/profile_directory.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <map>

#include "tests/temporary_directory.h"

namespace bravebot {
namespace {

using testing::TemporaryDirectory;

EnvironmentLookup Environment(std::map<std::string, std::string> values) {
  return [values = std::move(values)](const char* name) -> const char* {
    auto found = values.find(name);
    return found == values.end() ? nullptr : found->second.c_str();
  };
}

TEST(ProfileDirectoryTest, LocatedByBravebotHomeThenHome) {
  EXPECT_EQ(LocateProfileDirectory(Environment({{"BRAVEBOT_HOME", "/p"}, {"HOME", "/h"}}), "/"),
            "/p");
  EXPECT_EQ(LocateProfileDirectory(Environment({{"HOME", "/h"}}), "/"), "/h/.bravebot");
  EXPECT_EQ(LocateProfileDirectory(Environment({{"BRAVEBOT_HOME", "rel"}}), "/w"), "/w/rel");
  EXPECT_EQ(LocateProfileDirectory(Environment({{"BRAVEBOT_HOME", ""}, {"HOME", ""}}), "/"),
            std::nullopt);
  EXPECT_EQ(LocateProfileDirectory(Environment({}), "/"), std::nullopt);
}

TEST(ProfileDirectoryTest, CreatedPrivateAndMissingOneNotCreatedForReading) {
  TemporaryDirectory temporary;
  std::string path = temporary.Join("profile");
  auto missing = ProfileDirectory::Open(path, Create::kNo);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code(), ErrorCode::kNotFound);
  EXPECT_FALSE(std::filesystem::exists(path));

  auto created = ProfileDirectory::Open(path, Create::kYes);
  ASSERT_TRUE(created.ok()) << created.error().message();
  struct stat status;
  ASSERT_EQ(::stat(path.c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 07777, 0700u);
}

TEST(ProfileDirectoryTest, AWideOpenOneIsNarrowedWhenWritten) {
  TemporaryDirectory temporary;
  std::string path = temporary.Join("profile");
  ASSERT_EQ(::mkdir(path.c_str(), 0755), 0);
  ASSERT_EQ(::chmod(path.c_str(), 0755), 0);
  ASSERT_TRUE(ProfileDirectory::Open(path, Create::kYes).ok());
  struct stat status;
  ASSERT_EQ(::stat(path.c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 07777, 0700u);
}

TEST(ProfileDirectoryTest, TheDirectoryItselfMayBeALink) {
  TemporaryDirectory temporary;
  std::filesystem::create_directory(temporary.Join("real"));
  ASSERT_EQ(::symlink("real", temporary.Join("link").c_str()), 0);
  auto profile = ProfileDirectory::Open(temporary.Join("link"), Create::kYes);
  ASSERT_TRUE(profile.ok()) << profile.error().message();
  EXPECT_EQ(profile->path(), temporary.Join("link"));
  EXPECT_EQ(profile->resolved_path(), std::filesystem::canonical(temporary.Join("real")).string());
}

}  // namespace
}  // namespace bravebot
