#include "cli/sign_in_reach.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace bravebot {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kElsewhere[] = "https://mcp.example.com/mcp";
constexpr char kHere[] = "http://127.0.0.1:8123/mcp";

TEST(SignInReachTest, AServiceElsewhereReachesHttpsAloneAndNeverThisMachinesPlainPorts) {
  EXPECT_TRUE(ReachableWhileSigningIn(kElsewhere, "https://auth.example.com/meta", "it"));
  // Https on this machine is https: what the service names there is its to name.
  EXPECT_TRUE(ReachableWhileSigningIn(kElsewhere, "https://127.0.0.1:9/meta", "it"));
  for (const char* url : {"http://127.0.0.1:9/meta", "http://localhost:9/meta", "http://[::1]:9/x",
                          "http://auth.example.com/meta"}) {
    Status refused = ReachableWhileSigningIn(kElsewhere, url, "the metadata url its 401 names");
    ASSERT_FALSE(refused) << url;
    EXPECT_EQ(refused.error().code(), ErrorCode::kRefused);
    EXPECT_THAT(refused.error().message(),
                AllOf(HasSubstr("the metadata url its 401 names is not https"),
                      HasSubstr("nothing was sent to it"), Not(HasSubstr("127.0.0.1"))));
  }
  // A plain http service elsewhere is no excuse for plain http around it.
  EXPECT_FALSE(ReachableWhileSigningIn("http://mcp.example.com/mcp", "http://127.0.0.1:9/m", "it"));
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

}  // namespace
}  // namespace bravebot
