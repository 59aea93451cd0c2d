#include "base/files.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "base/file_lock.h"
#include "base/unique_fd.h"
#include "tests/temporary_directory.h"

namespace bravebot {
namespace {

using ::testing::HasSubstr;
using testing::TemporaryDirectory;

class FilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(directory_.path().empty());
    dir_fd_.reset(::open(directory_.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    ASSERT_TRUE(dir_fd_.valid());
  }
  std::string Slurp(const std::string& name) {
    std::ifstream in(directory_.Join(name));
    return {std::istreambuf_iterator<char>(in), {}};
  }

  TemporaryDirectory directory_;
  UniqueFd dir_fd_;
};

TEST_F(FilesTest, ReplaceWritesTheWholeFileWithTheModeGiven) {
  ASSERT_TRUE(ReplaceFileAt(dir_fd_.get(), "f", "one", 0600, "f").ok());
  ASSERT_TRUE(ReplaceFileAt(dir_fd_.get(), "f", "two", 0600, "f").ok());
  EXPECT_EQ(Slurp("f"), "two");
  struct stat status;
  ASSERT_EQ(::stat(directory_.Join("f").c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 07777, 0600u);
  // Nothing is left beside it.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(directory_.path()), {}), 1);
}

TEST_F(FilesTest, ReplaceRefusesALinkAndLeavesItsTargetAlone) {
  std::ofstream(directory_.Join("target")) << "precious";
  ASSERT_EQ(::symlink("target", directory_.Join("f").c_str()), 0);
  Status status = ReplaceFileAt(dir_fd_.get(), "f", "new", 0600, "f");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code(), ErrorCode::kRefused);
  EXPECT_THAT(status.error().message(), HasSubstr("is a link"));
  EXPECT_EQ(Slurp("target"), "precious");
  EXPECT_TRUE(std::filesystem::is_symlink(directory_.Join("f")));
}

TEST_F(FilesTest, ReadRefusesALinkAndReportsAMissingFile) {
  std::ofstream(directory_.Join("target")) << "x";
  ASSERT_EQ(::symlink("target", directory_.Join("link").c_str()), 0);
  auto linked = ReadFileAt(dir_fd_.get(), "link", "link");
  ASSERT_FALSE(linked.ok());
  EXPECT_EQ(linked.error().code(), ErrorCode::kRefused);
  auto missing = ReadFileAt(dir_fd_.get(), "missing", "missing");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code(), ErrorCode::kNotFound);
  auto read = ReadFileAt(dir_fd_.get(), "target", "target");
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(*read, "x");
}

TEST_F(FilesTest, ReplaceRefusesADirectory) {
  std::filesystem::create_directory(directory_.Join("d"));
  EXPECT_FALSE(ReplaceFileAt(dir_fd_.get(), "d", "x", 0600, "d").ok());
}

TEST_F(FilesTest, AbandonedTemporariesAreRemovedAndOthersKept) {
  std::ofstream(directory_.Join(".f.new-abc")) << "half";
  std::ofstream(directory_.Join(".g.new-abc")) << "other";
  std::ofstream(directory_.Join("f")) << "whole";
  RemoveAbandonedTemporaries(dir_fd_.get(), "f");
  EXPECT_FALSE(std::filesystem::exists(directory_.Join(".f.new-abc")));
  EXPECT_TRUE(std::filesystem::exists(directory_.Join(".g.new-abc")));
  EXPECT_TRUE(std::filesystem::exists(directory_.Join("f")));
}

TEST_F(FilesTest, LockRefusesALink) {
  ASSERT_EQ(::symlink("elsewhere", directory_.Join(".lock").c_str()), 0);
  auto lock = FileLock::Acquire(dir_fd_.get(), ".lock", ".lock");
  ASSERT_FALSE(lock.ok());
  EXPECT_EQ(lock.error().code(), ErrorCode::kRefused);
  EXPECT_FALSE(std::filesystem::exists(directory_.Join("elsewhere")));
}

TEST(ReadWholeFileTest, ReadsARegularFileAndSaysWhyNotAnythingElse) {
  TemporaryDirectory directory;
  const std::string file = directory.Join("policy.json");
  std::ofstream(file) << "{}";
  EXPECT_EQ(ReadWholeFile(file, 10, "too large").value(), std::optional<std::string>("{}"));
  EXPECT_EQ(ReadWholeFile(directory.Join("missing"), 10, "too large").value(), std::nullopt);
  Result<std::optional<std::string>> large = ReadWholeFile(file, 1, "is larger than any policy");
  ASSERT_FALSE(large.ok());
  EXPECT_EQ(large.error().message(), "is larger than any policy");
  // A fifo is refused without waiting for a writer.
  const std::string fifo = directory.Join("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  Result<std::optional<std::string>> not_regular = ReadWholeFile(fifo, 10, "too large");
  ASSERT_FALSE(not_regular.ok());
  EXPECT_EQ(not_regular.error().message(), "is not a regular file");
}

}  // namespace
}  // namespace bravebot
