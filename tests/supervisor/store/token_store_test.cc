#include "supervisor/store/token_store.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "confine/digest.h"
#include "supervisor/store/declaration_changes.h"
#include "tests/confine/testing/declarations.h"
#include "tests/temporary_directory.h"

namespace bravebot {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::ServiceDeclaration;
using testing::TemporaryDirectory;

StoredToken Token(const std::string& digest, const std::string& access = "2YotnFZFEjr1zCsicMWpAA",
                  const std::string& alias = "docs") {
  StoredToken token;
  token.alias = alias;
  token.digest = digest;
  token.origin = "https://mcp.example.com";
  token.access_token = access;
  token.refresh_token = "tGzv3JOkF0XG5Qx2TlKWIA";
  token.expires_at = 1765000000;
  token.scope = "files:read";
  token.token_endpoint = "https://auth.example.com/token";
  token.client_id = "s6BhdRkqt3";
  token.client_secret = "gX1fBat3bV";
  token.client_authentication = ClientAuthentication::kSecretBasic;
  return token;
}

TEST(TokenFileTest, RoundTrips) {
  TokenFile file;
  file.Put(Token(std::string(64, 'a')));
  StoredToken lean = Token(std::string(64, 'b'));
  lean.refresh_token.reset();
  lean.expires_at.reset();
  lean.scope.reset();
  lean.client_secret.reset();
  lean.client_authentication.reset();
  file.Put(lean);
  auto again = ParseTokenFile(SerializeTokenFile(file), "mcp-tokens");
  ASSERT_TRUE(again.ok()) << again.error().message();
  ASSERT_EQ(again->tokens.size(), 2u);
  EXPECT_EQ(again->tokens[0], file.tokens[0]);
  EXPECT_EQ(again->tokens[1], lean);
}

TEST(TokenFileTest, AWayOfProvingTheClientThatIsNoneKnownIsRefused) {
  TokenFile file;
  file.Put(Token(std::string(64, 'a')));
  std::string text = SerializeTokenFile(file);
  const std::string known = "\"client_secret_basic\"";
  ASSERT_NE(text.find(known), std::string::npos);
  text.replace(text.find(known), known.size(), "\"private_key_jwt\"");
  auto read = ParseTokenFile(text, "mcp-tokens");
  ASSERT_FALSE(read.ok());
  EXPECT_THAT(read.error().message(), HasSubstr("\"client_authentication\" is none this reads"));
  EXPECT_THAT(read.error().message(), Not(HasSubstr("gX1fBat3bV")));
}

TEST(TokenFileTest, PutReplacesTheTokenOfItsDigestAndOrigin) {
  TokenFile file;
  file.Put(Token(std::string(64, 'a'), "first"));
  file.Put(Token(std::string(64, 'a'), "second"));
  StoredToken elsewhere = Token(std::string(64, 'a'), "third");
  elsewhere.origin = "https://other.example.com";
  file.Put(elsewhere);
  ASSERT_EQ(file.tokens.size(), 2u);
  EXPECT_EQ(file.Find("docs", std::string(64, 'a'), "https://mcp.example.com")->access_token,
            "second");
  EXPECT_EQ(file.Find("docs", std::string(64, 'a'), "https://other.example.com")->access_token,
            "third");
  EXPECT_EQ(file.Find("docs", std::string(64, 'b'), "https://mcp.example.com"), nullptr);
  EXPECT_EQ(file.Forget("docs"), 2u);
  EXPECT_TRUE(file.tokens.empty());
}

TEST(TokenFileTest, ForgettingAnAliasTakesEveryDigestOfItAndNoOtherAlias) {
  TokenFile file;
  file.Put(Token(std::string(64, 'a')));
  file.Put(Token(std::string(64, 'b')));
  file.Put(Token(std::string(64, 'a'), "theirs", "other"));
  EXPECT_EQ(file.Forget("docs"), 2u);
  ASSERT_EQ(file.tokens.size(), 1u);
  EXPECT_EQ(file.tokens[0].alias, "other");
}

TEST(TokenFileTest, KeepsOnlyTheTokensOfDeclarationsThatStillAre) {
  const Declaration kept = ServiceDeclaration("kept", "https://mcp.example.com/mcp");
  const Declaration gone = ServiceDeclaration("gone", "https://gone.example.com/mcp");
  TokenFile file;
  file.Put(Token(ComputeDigest(kept).hex, "k", "kept"));
  file.Put(Token(ComputeDigest(gone).hex, "g", "gone"));
  // Declared alike under another alias: not the declaration the token is for.
  file.Put(Token(ComputeDigest(kept).hex, "o", "other"));
  EXPECT_EQ(file.KeepOnlyThoseOf({kept}), 2u);
  ASSERT_EQ(file.tokens.size(), 1u);
  EXPECT_EQ(file.tokens[0].digest, ComputeDigest(kept).hex);
}

TEST(TokenFileTest, RefusesWhatIsNotTheFormatWithoutQuotingIt) {
  const std::string entry =
      R"("origin": "https://a", "access_token": "s3cr3t", "token_endpoint": "https://a/t",
         "client_id": "c")";
  for (const std::string& text : {
           std::string("{\"version\": 1, \"tokens\": [{\"digest\": \"") + std::string(64, 'a') +
               "\", \"access_token\": \"s3cr3t\"",  // torn
           std::string("[]"),
           std::string(R"({"tokens": []})"),
           std::string(R"({"version": 2, "tokens": []})"),
           std::string(R"({"version": 1})"),
           std::string(R"({"version": 1, "tokens": [{"digest": "ab", )") + entry + "}]}",
           std::string(R"({"version": 1, "tokens": [{"digest": ")") + std::string(64, 'a') +
               R"(", "origin": "https://a", "access_token": "s3cr3t"}]})",
           std::string(R"({"version": 1, "tokens": [{"digest": ")") + std::string(64, 'a') +
               R"(", "expires_at": "soon", )" + entry + "}]}",
           std::string(R"({"version": 1, "tokens": [{"digest": ")") + std::string(64, 'a') +
               R"(", )" + entry + R"(}, {"digest": ")" + std::string(64, 'a') + R"(", )" + entry +
               "}]}",
       }) {
    auto file = ParseTokenFile(text, "/home/u/.bravebot/mcp-tokens");
    ASSERT_FALSE(file.ok()) << text;
    EXPECT_EQ(file.error().code(), ErrorCode::kCorrupt);
    EXPECT_THAT(file.error().message(), HasSubstr("/home/u/.bravebot/mcp-tokens"));
    EXPECT_THAT(file.error().message(), HasSubstr("It was left as it is"));
    EXPECT_THAT(file.error().message(), Not(HasSubstr("s3cr3t")));
  }
}

class TokenStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto profile = ProfileDirectory::Open(temporary_.Join("profile"), Create::kYes);
    ASSERT_TRUE(profile.ok()) << profile.error().message();
    profile_.emplace(std::move(*profile));
  }
  std::string FilePath() const { return temporary_.Join("profile/mcp-tokens"); }
  // Stores `token` whatever is declared, as the lock holder may.
  Status Put(StoredToken token) const {
    Result<FileLock> lock = profile_->Lock();
    if (!lock) return lock.error();
    return TokenStore(*profile_).Change(*lock,
                                        [&](TokenFile& file) { file.Put(std::move(token)); });
  }
  std::string Slurp() const {
    std::ifstream in(FilePath(), std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  void Write(const std::string& text) const { std::ofstream(FilePath(), std::ios::binary) << text; }

  TemporaryDirectory temporary_;
  std::optional<ProfileDirectory> profile_;
};

TEST_F(TokenStoreTest, AMissingFileStoresNothingAndIsNotCreatedByForgetting) {
  auto found = FindToken(*profile_, "docs", std::string(64, 'a'), "https://mcp.example.com");
  ASSERT_TRUE(found.ok());
  EXPECT_FALSE(found->has_value());
  auto forgotten = ForgetTokens(*profile_, "docs");
  ASSERT_TRUE(forgotten.ok());
  EXPECT_EQ(*forgotten, 0u);
  EXPECT_FALSE(std::filesystem::exists(FilePath()));
}

TEST_F(TokenStoreTest, PutFindForget) {
  ASSERT_TRUE(Put(Token(std::string(64, 'a'))).ok());
  auto found = FindToken(*profile_, "docs", std::string(64, 'a'), "https://mcp.example.com");
  ASSERT_TRUE(found.ok()) << found.error().message();
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ(**found, Token(std::string(64, 'a')));
  EXPECT_FALSE(
      FindToken(*profile_, "docs", std::string(64, 'a'), "https://other.example.com")->has_value());
  auto forgotten = ForgetTokens(*profile_, "docs");
  ASSERT_TRUE(forgotten.ok());
  EXPECT_EQ(*forgotten, 1u);
  EXPECT_FALSE(
      FindToken(*profile_, "docs", std::string(64, 'a'), "https://mcp.example.com")->has_value());
}

TEST_F(TokenStoreTest, TheFileIsOnlyTheOwnersEvenWithAUmaskOfZero) {
  const mode_t before = ::umask(0);
  const Status put = Put(Token(std::string(64, 'a')));
  ::umask(before);
  ASSERT_TRUE(put.ok()) << put.error().message();
  struct stat status {};
  ASSERT_EQ(::stat(FilePath().c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 07777, 0600u);
}

TEST_F(TokenStoreTest, ATornFileIsRefusedAndKept) {
  const std::string torn = "{\"version\": 1, \"tokens\": [{\"digest\": \"";
  Write(torn);
  auto found = FindToken(*profile_, "docs", std::string(64, 'a'), "https://mcp.example.com");
  ASSERT_FALSE(found.ok());
  EXPECT_EQ(found.error().code(), ErrorCode::kCorrupt);
  const Status put = Put(Token(std::string(64, 'a')));
  ASSERT_FALSE(put.ok());
  EXPECT_THAT(put.error().message(), HasSubstr("It was left as it is"));
  EXPECT_FALSE(ForgetTokens(*profile_, "docs").ok());
  EXPECT_EQ(Slurp(), torn);
}

TEST_F(TokenStoreTest, ConcurrentWritersLoseNothing) {
  // Each writer takes the profile directory's lock on a descriptor of its
  // own, as two processes would, and puts tokens of its own digests.
  constexpr size_t kWriters = 4;
  constexpr size_t kEach = 10;
  std::vector<std::thread> writers;
  writers.reserve(kWriters);
  std::vector<Status> results(kWriters * kEach);
  for (size_t writer = 0; writer < kWriters; ++writer) {
    writers.emplace_back([&, writer] {
      for (size_t i = 0; i < kEach; ++i) {
        std::string digest(64, 'a');
        digest[0] = "0123456789abcdef"[writer];
        digest[1] = "0123456789abcdef"[i];
        results[writer * kEach + i] = Put(Token(digest));
      }
    });
  }
  for (std::thread& writer : writers) writer.join();
  for (const Status& result : results) EXPECT_TRUE(result.ok());
  auto file = TokenStore(*profile_).Read();
  ASSERT_TRUE(file.ok()) << file.error().message();
  EXPECT_EQ(file->tokens.size(), kWriters * kEach);
}

TEST_F(TokenStoreTest, ADeclarationChangedRemovedOrMovedDropsItsTokens) {
  const Declaration weather = ServiceDeclaration("weather", "https://weather.example.com/mcp");
  const Declaration mail = ServiceDeclaration("mail", "https://mail.example.com/mcp");
  ASSERT_TRUE(Declare(*profile_, weather).ok());
  ASSERT_TRUE(Declare(*profile_, mail).ok());
  ASSERT_TRUE(Put(Token(ComputeDigest(weather).hex, "w", "weather")).ok());
  ASSERT_TRUE(Put(Token(ComputeDigest(mail).hex, "m", "mail")).ok());

  // Declared anew at another url: its tokens go, the other's stay.
  ASSERT_TRUE(
      Declare(*profile_, ServiceDeclaration("weather", "https://moved.example.com/mcp")).ok());
  auto file = TokenStore(*profile_).Read();
  ASSERT_TRUE(file.ok());
  ASSERT_EQ(file->tokens.size(), 1u);
  EXPECT_EQ(file->tokens[0].digest, ComputeDigest(mail).hex);

  ASSERT_TRUE(Undeclare(*profile_, "mail").ok());
  file = TokenStore(*profile_).Read();
  ASSERT_TRUE(file.ok());
  EXPECT_TRUE(file->tokens.empty());
}

TEST_F(TokenStoreTest, AnUnreadableTokenFileStopsADeclarationChange) {
  Write("not json");
  auto declared =
      Declare(*profile_, ServiceDeclaration("weather", "https://weather.example.com/mcp"));
  ASSERT_FALSE(declared.ok());
  EXPECT_THAT(declared.error().message(), HasSubstr("mcp-tokens"));
  EXPECT_FALSE(std::filesystem::exists(temporary_.Join("profile/mcp.json")));
  EXPECT_EQ(Slurp(), "not json");
}

TEST_F(TokenStoreTest, TwoAliasesDeclaredAlikeKeepTheirOwnTokens) {
  const Declaration work = ServiceDeclaration("work", "https://mcp.example.com/mcp");
  const Declaration personal = ServiceDeclaration("personal", "https://mcp.example.com/mcp");
  ASSERT_EQ(ComputeDigest(work).hex, ComputeDigest(personal).hex);
  ASSERT_TRUE(Declare(*profile_, work).ok());
  ASSERT_TRUE(Declare(*profile_, personal).ok());
  const std::string digest = ComputeDigest(work).hex;
  ASSERT_TRUE(*PutTokenWhileDeclared(*profile_, Token(digest, "work-token", "work")));
  ASSERT_TRUE(*PutTokenWhileDeclared(*profile_, Token(digest, "personal-token", "personal")));
  EXPECT_EQ((*FindToken(*profile_, "work", digest, "https://mcp.example.com"))->access_token,
            "work-token");
  EXPECT_EQ(*ForgetTokens(*profile_, "personal"), 1u);
  EXPECT_EQ((*FindToken(*profile_, "work", digest, "https://mcp.example.com"))->access_token,
            "work-token");
}

TEST_F(TokenStoreTest, ASignInKeepsNothingForADeclarationGoneMeanwhile) {
  const Declaration docs = ServiceDeclaration("docs", "https://mcp.example.com/mcp");
  EXPECT_FALSE(*PutTokenWhileDeclared(*profile_, Token(ComputeDigest(docs).hex)));
  ASSERT_TRUE(Declare(*profile_, ServiceDeclaration("docs", "https://other.example.com/mcp")).ok());
  EXPECT_FALSE(*PutTokenWhileDeclared(*profile_, Token(ComputeDigest(docs).hex)));
  EXPECT_TRUE(TokenStore(*profile_).Read()->tokens.empty());
}

TEST_F(TokenStoreTest, ARefreshIsKeptOnlyOverTheTokenItRenewed) {
  const StoredToken old = Token(std::string(64, 'a'), "old");
  StoredToken renewed = old;
  renewed.access_token = "new";
  renewed.refresh_token = "rotated";
  // Signed out while the refresh was under way: nothing comes back.
  EXPECT_FALSE(*RenewToken(*profile_, old, renewed));
  EXPECT_FALSE(std::filesystem::exists(FilePath()));
  ASSERT_TRUE(Put(old).ok());
  ASSERT_TRUE(*RenewToken(*profile_, old, renewed));
  // Another session renewed it first: its tokens stand.
  StoredToken late = old;
  late.access_token = "late";
  EXPECT_FALSE(*RenewToken(*profile_, old, late));
  EXPECT_EQ((*FindToken(*profile_, "docs", std::string(64, 'a'), "https://mcp.example.com"))
                ->access_token,
            "new");
  // At a server that keeps refresh tokens, a renewal keeps the same one:
  // told by the access token.
  StoredToken kept = renewed;
  kept.access_token = "newer";
  ASSERT_TRUE(*RenewToken(*profile_, renewed, kept));
  EXPECT_FALSE(*RenewToken(*profile_, renewed, late));
  EXPECT_EQ((*FindToken(*profile_, "docs", std::string(64, 'a'), "https://mcp.example.com"))
                ->access_token,
            "newer");
}

}  // namespace
}  // namespace bravebot
