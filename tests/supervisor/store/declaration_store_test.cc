#include "supervisor/store/declaration_store.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/temporary_directory.h"

namespace bravebot {
namespace {

using ::testing::HasSubstr;
using testing::TemporaryDirectory;

Declaration Server(const std::string& alias, const std::string& program = "npx") {
  Declaration declaration;
  declaration.alias = alias;
  declaration.program = program;
  declaration.passed_variables = {"PATH"};
  return declaration;
}

class DeclarationStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto profile = ProfileDirectory::Open(temporary_.Join("profile"), Create::kYes);
    ASSERT_TRUE(profile.ok()) << profile.error().message();
    profile_.emplace(std::move(*profile));
  }
  std::string FilePath() const { return temporary_.Join("profile/mcp.json"); }
  const FileLock& Lock() {
    if (!lock_) {
      auto lock = profile_->Lock();
      EXPECT_TRUE(lock.ok());
      lock_.emplace(std::move(*lock));
    }
    return *lock_;
  }
  std::string Slurp() const {
    std::ifstream in(FilePath(), std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }

  TemporaryDirectory temporary_;
  std::optional<ProfileDirectory> profile_;
  std::optional<FileLock> lock_;
};

TEST_F(DeclarationStoreTest, AMissingFileDeclaresNothing) {
  DeclarationStore store(*profile_);
  auto file = store.Read();
  ASSERT_TRUE(file.ok());
  EXPECT_TRUE(file->declarations.empty());
  EXPECT_FALSE(std::filesystem::exists(FilePath()));
}

TEST_F(DeclarationStoreTest, PutReplacesAndRemoveRemoves) {
  DeclarationStore store(*profile_);
  auto first = store.Put(Server("weather"), Lock());
  ASSERT_TRUE(first.ok()) << first.error().message();
  EXPECT_FALSE(first->has_value());
  auto second = store.Put(Server("weather", "bunx"), Lock());
  ASSERT_TRUE(second.ok());
  ASSERT_TRUE(second->has_value());
  EXPECT_EQ((*second)->program, "npx");
  ASSERT_TRUE(store.Put(Server("maps"), Lock()).ok());

  auto file = store.Read();
  ASSERT_TRUE(file.ok());
  ASSERT_EQ(file->declarations.size(), 2u);
  EXPECT_EQ(file->Find("weather")->program, "bunx");

  auto removed = store.Remove("weather", Lock());
  ASSERT_TRUE(removed.ok());
  EXPECT_EQ((*removed)->program, "bunx");
  auto again = store.Remove("weather", Lock());
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().code(), ErrorCode::kNotFound);
  EXPECT_EQ(store.Read()->declarations.size(), 1u);
}

TEST_F(DeclarationStoreTest, FileIsPrivateAndCarriesItsVersion) {
  DeclarationStore store(*profile_);
  ASSERT_TRUE(store.Put(Server("weather"), Lock()).ok());
  struct stat status;
  ASSERT_EQ(::stat(FilePath().c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 07777, 0600u);
  EXPECT_EQ(nlohmann::json::parse(Slurp())["version"], 1);
}

TEST_F(DeclarationStoreTest, UnparsableFileIsLeftByteForByte) {
  const std::string broken = "{\"version\": 1, \"servers\": {\"w\": \n  nope";
  std::ofstream(FilePath(), std::ios::binary) << broken;
  DeclarationStore store(*profile_);
  auto put = store.Put(Server("weather"), Lock());
  ASSERT_FALSE(put.ok());
  EXPECT_EQ(put.error().code(), ErrorCode::kCorrupt);
  EXPECT_THAT(put.error().message(), HasSubstr("line 2"));
  EXPECT_FALSE(store.Remove("w", Lock()).ok());
  EXPECT_EQ(Slurp(), broken);
}

TEST_F(DeclarationStoreTest, NewerFormatIsLeftAlone) {
  const std::string newer = R"({"version": 2, "servers": {}})";
  std::ofstream(FilePath()) << newer;
  DeclarationStore store(*profile_);
  EXPECT_FALSE(store.Put(Server("weather"), Lock()).ok());
  EXPECT_EQ(Slurp(), newer);
}

TEST_F(DeclarationStoreTest, UnusableEntriesAndUnknownKeysSurviveAWrite) {
  std::ofstream(FilePath()) << R"({"version": 1, "note": "mine", "servers": {
      "broken": {"transport": "stdio", "args": ["x"]}}})";
  DeclarationStore store(*profile_);
  ASSERT_TRUE(store.Put(Server("weather"), Lock()).ok());
  auto document = nlohmann::json::parse(Slurp());
  EXPECT_EQ(document["note"], "mine");
  EXPECT_EQ(document["servers"]["broken"]["args"][0], "x");
  auto file = store.Read();
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(file->unusable.size(), 1u);
  EXPECT_EQ(file->declarations.size(), 1u);
  // An unusable entry can still be removed by its alias.
  ASSERT_TRUE(store.Remove("broken", Lock()).ok());
  EXPECT_TRUE(store.Read()->unusable.empty());
}

TEST_F(DeclarationStoreTest, LinkPlantedAsTheFileIsNotWrittenThrough) {
  const std::string target = temporary_.Join("elsewhere.json");
  std::ofstream(target) << R"({"version": 1, "servers": {}})";
  ASSERT_EQ(::symlink(target.c_str(), FilePath().c_str()), 0);
  DeclarationStore store(*profile_);
  auto put = store.Put(Server("weather"), Lock());
  ASSERT_FALSE(put.ok());
  EXPECT_THAT(put.error().message(), HasSubstr("is a link"));
  std::ifstream in(target);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}),
            R"({"version": 1, "servers": {}})");
  EXPECT_TRUE(std::filesystem::is_symlink(FilePath()));
  EXPECT_FALSE(store.Read().ok());
}

TEST_F(DeclarationStoreTest, ValueThatIsNotUtf8IsRefusedAndNothingWritten) {
  DeclarationStore store(*profile_);
  ASSERT_TRUE(store.Put(Server("weather"), Lock()).ok());
  const std::string before = Slurp();
  Declaration bad = Server("bad");
  bad.arguments = {"\xff\xfe"};
  auto put = store.Put(bad, Lock());
  ASSERT_FALSE(put.ok());
  EXPECT_THAT(put.error().message(), HasSubstr("not UTF-8"));
  EXPECT_EQ(Slurp(), before);
}

}  // namespace
}  // namespace bravebot
