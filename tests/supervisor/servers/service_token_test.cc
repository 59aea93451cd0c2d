// A refresh is sent only where login could have sent it: the entry's
// token_endpoint comes from mcp-tokens, a file anyone who restores a backup
// or follows a page's advice may have written. Then (review 26, F4, F8) one
// refresh of an entry at a time, under its lock in mcp-tokens.locks.
#include "supervisor/servers/service_token.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <thread>

#include "confine/digest.h"
#include "supervisor/auth/oauth_url.h"
#include "supervisor/store/token_refresh_lock.h"
#include "supervisor/store/token_store.h"
#include "tests/supervisor/testing/authorization_server.h"
#include "tests/temporary_directory.h"

namespace bravebot {
namespace {

using testing::AuthorizationServer;
using ::testing::HasSubstr;
using testing::RecordedRequest;
using testing::TemporaryDirectory;

TEST(ServiceTokenTest, ARefreshGoesNowhereLoginWouldNotHaveSentIt) {
  TemporaryDirectory temporary;
  Result<ProfileDirectory> profile =
      ProfileDirectory::Open(temporary.Join("profile"), Create::kYes);
  ASSERT_TRUE(profile) << profile.error().message();
  AuthorizationServer server({.client_id = "desk", .client_secret = "s3cret"});

  // A service elsewhere, in https, with a client the person declared.
  Declaration declaration;
  declaration.alias = "svc";
  declaration.transport = Transport::kHttp;
  declaration.url = "https://mcp.example/mcp";
  declaration.sign_in.id = "desk";
  declaration.sign_in.secret = "s3cret";
  StoredToken token{.alias = "svc",
                    .digest = ComputeDigest(declaration).hex,
                    .origin = ReadOAuthUrl(declaration.url)->origin,
                    .access_token = "old",
                    .refresh_token = "r1",
                    .expires_at = 1000000000,
                    .token_endpoint = server.Issuer() + "/token",  // plain http, this machine
                    .client_id = "desk"};
  {
    Result<FileLock> lock = profile->Lock();
    ASSERT_TRUE(lock);
    ASSERT_TRUE(TokenStore(*profile).Change(*lock, [&](TokenFile& file) { file.Put(token); }));
  }
  ServerStartOptions options;
  options.profile = &*profile;
  Result<std::optional<std::string>> sent = ServiceTokenNow(declaration, options);
  ASSERT_TRUE(sent) << sent.error().message();
  EXPECT_FALSE(*sent);
  // Login refuses to send anything to plain http on this machine for a
  // service elsewhere; a refresh must not send its refresh token and the
  // declared secret there either.
  EXPECT_TRUE(server.Requests().empty());
  EXPECT_EQ(
      server.SecretsSentBy("client_secret_basic") + server.SecretsSentBy("client_secret_post"), 0);
}

// A profile with svc, a service on this machine, signed in and its token
// long expired: a start refreshes it first.
class ExpiredTokenTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<ProfileDirectory> opened =
        ProfileDirectory::Open(temporary_.Join("profile"), Create::kYes);
    ASSERT_TRUE(opened) << opened.error().message();
    profile_.emplace(std::move(*opened));
    declaration_.alias = "svc";
    declaration_.transport = Transport::kHttp;
    declaration_.url = server_.ServiceUrl();
    const StoredToken token{.alias = "svc",
                            .digest = ComputeDigest(declaration_).hex,
                            .origin = ReadOAuthUrl(declaration_.url)->origin,
                            .access_token = "old",
                            .refresh_token = "r1",
                            .expires_at = 1000000000,
                            .token_endpoint = server_.Issuer() + "/token",
                            .client_id = "c"};
    Result<FileLock> lock = profile_->Lock();
    ASSERT_TRUE(lock);
    ASSERT_TRUE(TokenStore(*profile_).Change(*lock, [&](TokenFile& file) { file.Put(token); }));
    options_.profile = &*profile_;
  }

  Result<std::optional<std::string>> Start(std::chrono::milliseconds refresh_wait) {
    boost::asio::io_context io;
    HttpClient http(io, "svc");
    Result<std::optional<std::string>> token = std::optional<std::string>();
    boost::asio::co_spawn(
        io,
        [&]() -> boost::asio::awaitable<void> {
          token = co_await ServiceToken(http, declaration_, options_, refresh_wait);
        },
        boost::asio::detached);
    io.run();
    return token;
  }

  StoredToken Entry() const {
    return *FindToken(*profile_, "svc", ComputeDigest(declaration_).hex,
                      ReadOAuthUrl(declaration_.url)->origin)
                .value();
  }
  std::string LockPath() const { return TokenRefreshLockPath(*profile_, Entry()); }

  TemporaryDirectory temporary_;
  AuthorizationServer server_;
  std::optional<ProfileDirectory> profile_;
  Declaration declaration_;
  ServerStartOptions options_;
};

TEST_F(ExpiredTokenTest, ARefreshLockThatIsALinkIsSaidAndNeverFollowed) {
  const std::string elsewhere = temporary_.Join("elsewhere");
  ASSERT_EQ(::mkdir(profile_->PathOf(kTokenRefreshLocksName).c_str(), 0700), 0);
  ASSERT_EQ(::symlink(elsewhere.c_str(), LockPath().c_str()), 0);
  Result<std::optional<std::string>> sent = Start(kRefreshWait);
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().code(), ErrorCode::kNotStarted);
  EXPECT_THAT(sent.error().message(),
              HasSubstr("svc was not started: its token expired, and could not be refreshed: " +
                        LockPath() + " is a link"));
  EXPECT_NE(::access(elsewhere.c_str(), F_OK), 0);
  EXPECT_TRUE(server_.Requests().empty());
}

TEST_F(ExpiredTokenTest, AStartWaitsForAnotherRefreshOnlySoLongAndSaysSo) {
  Result<std::optional<TokenRefreshLock>> another = TryLockTokenRefresh(*profile_, Entry());
  ASSERT_TRUE(another && *another);
  Result<std::optional<std::string>> sent = Start(std::chrono::milliseconds(200));
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().code(), ErrorCode::kNotStarted);
  EXPECT_THAT(sent.error().message(),
              HasSubstr("svc was not started: its token expired, and another start has been "
                        "refreshing it for more than 0 s (it holds " +
                        LockPath() + ")"));
  EXPECT_TRUE(server_.Requests().empty());
}

TEST_F(ExpiredTokenTest, AnotherServicesRefreshHoldsUpNothing) {
  // Another service's token endpoint that stalls holds its own entry's lock.
  StoredToken other = Entry();
  other.alias = "stalling";
  Result<std::optional<TokenRefreshLock>> stalling = TryLockTokenRefresh(*profile_, other);
  ASSERT_TRUE(stalling && *stalling);
  Result<std::optional<std::string>> sent = Start(std::chrono::milliseconds(200));
  ASSERT_TRUE(sent) << sent.error().message();
  // The refresh was sent at once (this test's server knows no r1, and
  // refuses it: no token then, as for any refused refresh).
  const std::vector<RecordedRequest> requests = server_.Requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_THAT(requests[0].body, HasSubstr("grant_type=refresh_token"));
}

TEST_F(ExpiredTokenTest, AnIncognitoStartMakesNoRefreshLock) {
  options_.incognito = true;
  Result<std::optional<std::string>> sent = Start(kRefreshWait);
  ASSERT_TRUE(sent);
  EXPECT_FALSE(*sent);
  EXPECT_NE(::access(LockPath().c_str(), F_OK), 0);
  EXPECT_TRUE(server_.Requests().empty());
}

TEST_F(ExpiredTokenTest, ARefreshMadeWhileThisStartWaitedIsSentAndNotMadeAgain) {
  std::optional<TokenRefreshLock> another = std::move(*TryLockTokenRefresh(*profile_, Entry()));
  ASSERT_TRUE(another);
  // The other start stores what its refresh gave, then lets go.
  std::thread other([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    StoredToken renewed = Entry();
    StoredToken old = renewed;
    renewed.access_token = "renewed";
    renewed.expires_at = SecondsSince1970Now() + 3600;  // the same refresh token: not rotated
    ASSERT_TRUE(RenewToken(*profile_, old, renewed).value());
    another.reset();
  });
  Result<std::optional<std::string>> sent = Start(kRefreshWait);
  other.join();
  ASSERT_TRUE(sent) << sent.error().message();
  EXPECT_EQ(*sent, "renewed");
  EXPECT_TRUE(server_.Requests().empty());
}

}  // namespace
}  // namespace bravebot
