// A session asks before each request whether its sign-in is still kept
// (review 26, second round): the answer follows mcp-tokens, and the file
// is read again only where it was replaced or changed, so a service that
// has requests sent without end does not have MiB parsed for each.
#include "supervisor/servers/kept_sign_in.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>

#include "base/files.h"
#include "confine/digest.h"
#include "supervisor/store/file_bounds.h"
#include "supervisor/store/token_store.h"
#include "tests/temporary_directory.h"

namespace bravebot {
namespace {

using testing::TemporaryDirectory;

class KeptSignInTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<ProfileDirectory> opened = ProfileDirectory::Open(temporary_.Join("p"), Create::kYes);
    ASSERT_TRUE(opened) << opened.error().message();
    profile_.emplace(std::move(*opened));
    Put("svc");
  }

  void Put(const std::string& alias) {
    Result<FileLock> lock = profile_->Lock();
    ASSERT_TRUE(lock);
    ASSERT_TRUE(TokenStore(*profile_).Change(*lock, [&](TokenFile& file) {
      file.Put({.alias = alias,
                .digest = std::string(64, 'd'),
                .origin = "https://mcp.example",
                .access_token = "t-" + alias,
                .token_endpoint = "https://mcp.example/token",
                .client_id = "c"});
    }));
  }

  KeptSignIn Check() {
    return KeptSignIn(*profile_->Duplicate(), "svc", std::string(64, 'd'), "https://mcp.example");
  }

  TemporaryDirectory temporary_;
  std::optional<ProfileDirectory> profile_;
};

TEST_F(KeptSignInTest, ReadsTheFileAgainOnlyWhereItChanged) {
  KeptSignIn kept = Check();
  for (int request = 0; request < 100; ++request) ASSERT_TRUE(kept.StillKept());
  EXPECT_EQ(kept.reads(), 1u);
  // A login of another service replaces the file: read again, still kept.
  Put("other");
  EXPECT_TRUE(kept.StillKept());
  EXPECT_TRUE(kept.StillKept());
  EXPECT_EQ(kept.reads(), 2u);
  ASSERT_TRUE(ForgetTokens(*profile_, "svc"));
  EXPECT_FALSE(kept.StillKept());
  EXPECT_EQ(kept.reads(), 3u);
}

TEST_F(KeptSignInTest, AFileEditedInPlaceIsReadAgain) {
  KeptSignIn kept = Check();
  ASSERT_TRUE(kept.StillKept());
  // A hand edit that keeps the inode: its size and times change (its times
  // alone are not told apart within the file system's clock tick, some ms).
  const std::string path = profile_->PathOf(kTokenFileName);
  Result<std::string> text = ReadFileAt(profile_->fd(), kTokenFileName, path, kTokenFileBound);
  ASSERT_TRUE(text);
  std::string edited = *text;
  edited.replace(edited.find("\"svc\""), 5, "\"someone\"");
  ASSERT_EQ(::truncate(path.c_str(), 0), 0);
  FILE* file = std::fopen(path.c_str(), "r+");
  ASSERT_NE(file, nullptr);
  ASSERT_EQ(std::fwrite(edited.data(), 1, edited.size(), file), edited.size());
  std::fclose(file);
  EXPECT_FALSE(kept.StillKept());
}

TEST_F(KeptSignInTest, OnceNotKeptNeverKeptAgain) {
  KeptSignIn kept = Check();
  ASSERT_TRUE(kept.StillKept());
  // Gone for a moment (a person moved the file aside to mend it, say).
  const std::string path = profile_->PathOf(kTokenFileName);
  ASSERT_EQ(std::rename(path.c_str(), (path + ".aside").c_str()), 0);
  EXPECT_FALSE(kept.StillKept());
  ASSERT_EQ(std::rename((path + ".aside").c_str(), path.c_str()), 0);
  // The token this channel held is not sent again; a new start reads afresh.
  EXPECT_FALSE(kept.StillKept());
  EXPECT_TRUE(Check().StillKept());
}

TEST_F(KeptSignInTest, AFileThatCannotBeReadKeepsNothing) {
  const std::string path = profile_->PathOf(kTokenFileName);
  ASSERT_EQ(::unlink(path.c_str()), 0);
  ASSERT_EQ(::symlink("/etc/hostname", path.c_str()), 0);
  EXPECT_FALSE(Check().StillKept());
  ASSERT_EQ(::unlink(path.c_str()), 0);
  FILE* file = std::fopen(path.c_str(), "w");
  ASSERT_NE(file, nullptr);
  std::fputs("{\"version\": 1, \"tokens\": [", file);
  std::fclose(file);
  EXPECT_FALSE(Check().StillKept());
}

}  // namespace
}  // namespace bravebot
