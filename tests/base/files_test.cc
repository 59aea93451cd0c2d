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
#include "tests/open_watch.h"
#include "tests/temporary_directory.h"

namespace bravebot {
namespace {

using ::testing::HasSubstr;
using testing::TemporaryDirectory;

constexpr FileBound kTestBound{1024, "a test file"};

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
  auto linked = ReadFileAt(dir_fd_.get(), "link", "link", kTestBound);
  ASSERT_FALSE(linked.ok());
  EXPECT_EQ(linked.error().code(), ErrorCode::kRefused);
  auto missing = ReadFileAt(dir_fd_.get(), "missing", "missing", kTestBound);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code(), ErrorCode::kNotFound);
  auto read = ReadFileAt(dir_fd_.get(), "target", "target", kTestBound);
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

TEST_F(FilesTest, TryLockGivesNothingWhileAnotherHoldsItAndRefusesALink) {
  auto held = FileLock::Acquire(dir_fd_.get(), "held.lock", "held.lock");
  ASSERT_TRUE(held.ok());
  auto tried = FileLock::TryAcquire(dir_fd_.get(), "held.lock", "held.lock");
  ASSERT_TRUE(tried.ok());
  EXPECT_FALSE(*tried);
  ASSERT_EQ(::symlink("elsewhere", directory_.Join("link.lock").c_str()), 0);
  auto link = FileLock::TryAcquire(dir_fd_.get(), "link.lock", "link.lock");
  ASSERT_FALSE(link.ok());
  EXPECT_EQ(link.error().code(), ErrorCode::kRefused);
  EXPECT_FALSE(std::filesystem::exists(directory_.Join("elsewhere")));
}

TEST_F(FilesTest, ReadTakesAFileUpToItsBoundAndRefusesOneOverItUnread) {
  std::ofstream(directory_.Join("full")) << std::string(1024, 'x');
  auto full = ReadFileAt(dir_fd_.get(), "full", "/p/full", kTestBound);
  ASSERT_TRUE(full.ok()) << full.error().message();
  EXPECT_EQ(full->size(), 1024u);

  // Sparse: two GiB that take no disk, and would take two GiB of memory
  // read whole.
  {
    UniqueFd made(::open(directory_.Join("sparse").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600));
    ASSERT_TRUE(made.valid());
    ASSERT_EQ(::ftruncate(made.get(), off_t{2} << 30), 0);
  }
  auto sparse = ReadFileAt(dir_fd_.get(), "sparse", "/p/sparse", kTestBound);
  ASSERT_FALSE(sparse.ok());
  EXPECT_EQ(sparse.error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(sparse.error().message(),
            "/p/sparse is 2 GiB, more than a test file may be (1 KiB), so it was not read: make "
            "it smaller, or move it away");

  std::ofstream(directory_.Join("over")) << std::string(1025, 'x');
  auto over = ReadFileAt(dir_fd_.get(), "over", "/p/over", kTestBound);
  ASSERT_FALSE(over.ok());
  EXPECT_THAT(over.error().message(), HasSubstr("/p/over is 1.0 KiB, more than a test file"));
}

// A file of /proc says it holds nothing and then reads as more: as a file
// growing while it is read does, which is refused once it passes the bound.
TEST(ReadFileAtTest, AFileThatGrowsPastItsBoundWhileReadIsRefused) {
  UniqueFd proc(::open("/proc/self", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  ASSERT_TRUE(proc.valid());
  struct stat status;
  ASSERT_EQ(::fstatat(proc.get(), "status", &status, 0), 0);
  ASSERT_EQ(status.st_size, 0) << "the test needs a file that says it is empty";
  auto grown = ReadFileAt(proc.get(), "status", "/proc/self/status", FileBound{64, "a status"});
  ASSERT_FALSE(grown.ok());
  EXPECT_EQ(grown.error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(grown.error().message(),
            "/proc/self/status grew while it was read to more than a status may be (64 bytes), so "
            "it was not read: make it smaller, or move it away");
  EXPECT_TRUE(
      ReadFileAt(proc.get(), "status", "/proc/self/status", FileBound{1 << 20, "a status"}).ok());
}

TEST_F(FilesTest, ReadRefusesAFifoADirectoryAndADeviceWithoutWaiting) {
  ASSERT_EQ(::mkfifo(directory_.Join("fifo").c_str(), 0600), 0);
  std::filesystem::create_directory(directory_.Join("dir"));
  testing::OpenWatch fifo_opened(directory_.Join("fifo"));
  testing::OpenWatch dir_opened(directory_.Join("dir"));
  ASSERT_TRUE(fifo_opened.watching() && dir_opened.watching()) << "inotify is needed";
  // No writer ever opens the fifo: a reader that opened it to wait would
  // hang the test here.
  auto fifo = ReadFileAt(dir_fd_.get(), "fifo", "/p/fifo", kTestBound);
  ASSERT_FALSE(fifo.ok());
  EXPECT_EQ(fifo.error().code(), ErrorCode::kRefused);
  EXPECT_EQ(fifo.error().message(), "/p/fifo is a fifo, not a regular file: move it away");
  auto dir = ReadFileAt(dir_fd_.get(), "dir", "/p/dir", kTestBound);
  ASSERT_FALSE(dir.ok());
  EXPECT_EQ(dir.error().message(), "/p/dir is a directory, not a regular file: move it away");
  // Looked at, and never opened.
  EXPECT_FALSE(fifo_opened.Opened());
  EXPECT_FALSE(dir_opened.Opened());
  UniqueFd dev(::open("/dev", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  ASSERT_TRUE(dev.valid());
  auto device = ReadFileAt(dev.get(), "zero", "/dev/zero", kTestBound);
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.error().message(), "/dev/zero is a device, not a regular file: move it away");
}

TEST(ShownByteCountTest, SaysASizeAsAPersonReadsIt) {
  EXPECT_EQ(ShownByteCount(0), "0 bytes");
  EXPECT_EQ(ShownByteCount(1), "1 byte");
  EXPECT_EQ(ShownByteCount(1023), "1023 bytes");
  EXPECT_EQ(ShownByteCount(1024), "1 KiB");
  EXPECT_EQ(ShownByteCount(1536), "1.5 KiB");
  EXPECT_EQ(ShownByteCount(std::uint64_t{4} << 20), "4 MiB");
  // Rounded down: never shown as more than it is.
  EXPECT_EQ(ShownByteCount((std::uint64_t{4} << 20) + 1), "4.0 MiB");
  EXPECT_EQ(ShownByteCount((std::uint64_t{2} << 30) - 1), "1.9 GiB");
  EXPECT_EQ(ShownByteCount(std::uint64_t{2} << 30), "2 GiB");
  EXPECT_EQ(ShownByteCount(~std::uint64_t{0}), "15.9 EiB");
}

TEST(ReadWholeFileTest, ReadsARegularFileAndSaysWhyNotAnythingElse) {
  TemporaryDirectory directory;
  const std::string file = directory.Join("policy.json");
  std::ofstream(file) << "{}";
  EXPECT_EQ(ReadWholeFile(file, kTestBound).value(), std::optional<std::string>("{}"));
  EXPECT_EQ(ReadWholeFile(directory.Join("missing"), kTestBound).value(), std::nullopt);
  Result<std::optional<std::string>> large = ReadWholeFile(file, FileBound{1, "a policy"});
  ASSERT_FALSE(large.ok());
  EXPECT_EQ(large.error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(large.error().message(), "is 2 bytes, more than a policy may be (1 byte)");
  // A link is followed to what it names.
  const std::string link = directory.Join("link");
  ASSERT_EQ(::symlink(file.c_str(), link.c_str()), 0);
  EXPECT_EQ(ReadWholeFile(link, kTestBound).value(), std::optional<std::string>("{}"));
  // A fifo is refused without waiting for a writer, even through a link;
  // so are a directory and a device.
  const std::string fifo = directory.Join("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string to_fifo = directory.Join("to-fifo");
  ASSERT_EQ(::symlink(fifo.c_str(), to_fifo.c_str()), 0);
  testing::OpenWatch fifo_opened(fifo);
  ASSERT_TRUE(fifo_opened.watching()) << "inotify is needed";
  for (const std::string& path : {fifo, to_fifo}) {
    Result<std::optional<std::string>> not_regular = ReadWholeFile(path, kTestBound);
    ASSERT_FALSE(not_regular.ok());
    EXPECT_EQ(not_regular.error().message(), "is a fifo, not a regular file");
  }
  EXPECT_FALSE(fifo_opened.Opened());
  EXPECT_EQ(ReadWholeFile(directory.path(), kTestBound).error().message(),
            "is a directory, not a regular file");
  EXPECT_EQ(ReadWholeFile("/dev/zero", kTestBound).error().message(),
            "is a device, not a regular file");
  // The bound holds while reading too.
  EXPECT_THAT(ReadWholeFile("/proc/self/status", FileBound{64, "a status"}).error().message(),
              HasSubstr("grew while it was read"));
}

}  // namespace
}  // namespace bravebot
