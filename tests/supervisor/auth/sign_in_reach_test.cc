#include "supervisor/auth/sign_in_reach.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace bravebot {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kElsewhere[] = "https://mcp.example.com/mcp";
constexpr char kHere[] = "http://127.0.0.1:8123/mcp";

AuthorizationServerMetadata Server(const std::string& origin) {
  AuthorizationServerMetadata server;
  server.issuer = origin;
  server.authorization_endpoint = origin + "/authorize";
  server.token_endpoint = origin + "/token";
  server.registration_endpoint = origin + "/register";
  server.code_challenge_methods_supported = {"S256"};
  return server;
}

TEST(SignInReachTest, AServiceElsewhereReachesHttpsAloneAndNeverThisMachinesPlainPorts) {
  EXPECT_TRUE(ReachableWhileSigningIn(kElsewhere, "https://auth.example.com/meta", "it"));
  // This machine, even in https: no service elsewhere signs in here.
  for (const char* url :
       {"https://127.0.0.1:9/meta", "https://localhost/meta", "https://[::1]/x"}) {
    Status here = ReachableWhileSigningIn(kElsewhere, url, "the issuer");
    ASSERT_FALSE(here) << url;
    EXPECT_THAT(here.error().message(), HasSubstr("the issuer is on this machine"));
  }
  for (const char* url : {"http://127.0.0.1:9/meta", "http://localhost:9/meta", "http://[::1]:9/x",
                          "http://auth.example.com/meta"}) {
    Status refused = ReachableWhileSigningIn(kElsewhere, url, "the metadata url its 401 names");
    ASSERT_FALSE(refused) << url;
    EXPECT_EQ(refused.error().code(), ErrorCode::kRefused);
    EXPECT_THAT(refused.error().message(),
                AllOf(HasSubstr("the metadata url its 401 names is "),
                      HasSubstr("nothing was sent to it"), Not(HasSubstr("127.0.0.1"))));
  }
  // A plain http service elsewhere is no excuse for plain http around it.
  EXPECT_FALSE(ReachableWhileSigningIn("http://mcp.example.com/mcp", "http://127.0.0.1:9/m", "it"));
}

// This machine has more spellings than localhost, 127.0.0.0/8 and ::1: a
// connection to 0.0.0.0 or :: reaches its own listeners on Linux, and
// libcurl and the resolver read *.localhost as this machine too.
TEST(SignInReachTest, AServiceElsewhereNeverNamesThisMachineByAnotherSpelling) {
  for (const char* url :
       {"https://0.0.0.0:8443/x", "https://[::]:8443/x", "https://a.localhost/x"}) {
    EXPECT_FALSE(ReachableWhileSigningIn(kElsewhere, url, "the issuer")) << url;
  }
}

TEST(SignInReachTest, AServiceOnThisMachineMayNamePlainHttpOnThisMachineOnly) {
  EXPECT_TRUE(ReachableWhileSigningIn(kHere, "http://127.0.0.1:9/meta", "it"));
  EXPECT_TRUE(ReachableWhileSigningIn(kHere, "http://localhost:9/meta", "it"));
  EXPECT_TRUE(ReachableWhileSigningIn(kHere, "https://auth.example.com/meta", "it"));
  Status remote = ReachableWhileSigningIn(kHere, "http://auth.example.com/meta", "the issuer");
  ASSERT_FALSE(remote);
  EXPECT_THAT(remote.error().message(), HasSubstr("the issuer is plain http to another machine"));
}

TEST(SignInReachTest, WhatIsNoUrlIsRefused) {
  Status refused = ReachableWhileSigningIn(kHere, "ftp://127.0.0.1/x", "the issuer");
  ASSERT_FALSE(refused);
  EXPECT_THAT(refused.error().message(), HasSubstr("the issuer is not a usable url"));
}

TEST(SignInReachTest, AnAuthorizationServerOfAServiceElsewhereIsHttpsInEveryEndpoint) {
  EXPECT_TRUE(ServerReachableWhileSigningIn(kElsewhere, Server("https://auth.example.com")));
  // Each endpoint alone in plain http elsewhere, or anywhere on this
  // machine, refuses it.
  const std::pair<std::string, std::string> refusals[] = {
      {"http://auth.example.com", "is not https"},
      {"http://127.0.0.1:9", "is on this machine"},
      {"https://127.0.0.1:9", "is on this machine"}};
  for (const auto& [origin, why] : refusals) {
    AuthorizationServerMetadata token = Server("https://auth.example.com");
    token.token_endpoint = origin + "/token";
    Status refused = ServerReachableWhileSigningIn(kElsewhere, token);
    ASSERT_FALSE(refused) << origin;
    EXPECT_THAT(refused.error().message(),
                HasSubstr("its authorization server's token endpoint " + why));

    AuthorizationServerMetadata authorize = Server("https://auth.example.com");
    authorize.authorization_endpoint = origin + "/authorize";
    EXPECT_THAT(ServerReachableWhileSigningIn(kElsewhere, authorize).error().message(),
                HasSubstr("authorization endpoint " + why));

    AuthorizationServerMetadata registration = Server("https://auth.example.com");
    registration.registration_endpoint = origin + "/register";
    EXPECT_THAT(ServerReachableWhileSigningIn(kElsewhere, registration).error().message(),
                HasSubstr("registration endpoint " + why));

    EXPECT_THAT(ServerReachableWhileSigningIn(kElsewhere, Server(origin)).error().message(),
                HasSubstr("issuer " + why));
  }
  // The tests' servers: the service and its server on this machine.
  EXPECT_TRUE(ServerReachableWhileSigningIn(kHere, Server("http://127.0.0.1:8123")));
}

}  // namespace
}  // namespace bravebot
