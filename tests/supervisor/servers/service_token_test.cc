// A refresh is sent only where login could have sent it: the entry's
// token_endpoint comes from mcp-tokens, a file anyone who restores a backup
// or follows a page's advice may have written.
#include "supervisor/servers/service_token.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "confine/digest.h"
#include "supervisor/auth/oauth_url.h"
#include "supervisor/store/token_store.h"
#include "tests/supervisor/testing/authorization_server.h"
#include "tests/temporary_directory.h"

namespace bravebot {
namespace {

using testing::AuthorizationServer;
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
  EXPECT_FALSE(ServiceTokenNow(declaration, options));
  // Login refuses to send anything to plain http on this machine for a
  // service elsewhere; a refresh must not send its refresh token and the
  // declared secret there either.
  EXPECT_TRUE(server.Requests().empty());
  EXPECT_EQ(
      server.SecretsSentBy("client_secret_basic") + server.SecretsSentBy("client_secret_post"), 0);
}

}  // namespace
}  // namespace bravebot
