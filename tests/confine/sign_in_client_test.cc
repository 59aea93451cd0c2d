#include "confine/sign_in_client.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace bravebot {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(SignInClientTest, AClientIdIsPrintableAsciiWithoutSpaces) {
  EXPECT_TRUE(IsClientId("app-7"));
  EXPECT_TRUE(IsClientId("s6BhdRkqt3"));
  EXPECT_TRUE(IsClientId(std::string(kMaxClientIdLength, 'a')));
  EXPECT_FALSE(IsClientId(std::string(kMaxClientIdLength + 1, 'a')));
  EXPECT_FALSE(IsClientId(""));
  EXPECT_FALSE(IsClientId("app 7"));
  EXPECT_FALSE(IsClientId("app\t7"));
  EXPECT_FALSE(IsClientId("caf\xc3\xa9"));
}

// RFC 6749 section 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ).
TEST(SignInClientTest, AScopeIsAnRfc6749ScopeToken) {
  EXPECT_TRUE(IsScopeToken("read:issues"));
  EXPECT_TRUE(IsScopeToken("https://www.example.com/auth/drive"));
  EXPECT_TRUE(IsScopeToken("!#[]~"));
  EXPECT_FALSE(IsScopeToken(""));
  EXPECT_FALSE(IsScopeToken("read write"));
  EXPECT_FALSE(IsScopeToken("a\"b"));
  EXPECT_FALSE(IsScopeToken("a\\b"));
  EXPECT_FALSE(IsScopeToken("a\x7f"));
  EXPECT_FALSE(IsScopeToken("caf\xc3\xa9"));
}

TEST(SignInClientTest, ASecretIsOneLineOfAtMost4096Bytes) {
  EXPECT_EQ(ClientSecretRefusal("sk-client-1"), std::nullopt);
  EXPECT_EQ(ClientSecretRefusal("caf\xc3\xa9 with a space"), std::nullopt);
  EXPECT_EQ(ClientSecretRefusal(std::string(kMaxClientSecretLength, 's')), std::nullopt);
  EXPECT_EQ(ClientSecretRefusal(""), "the client secret is empty");
  EXPECT_EQ(ClientSecretRefusal(std::string(kMaxClientSecretLength + 1, 's')),
            "the client secret is longer than 4096 bytes");
  for (const std::string& secret : {std::string("a\nb"), std::string("a\rb"), std::string("a\tb"),
                                    std::string("a\0b", 3), std::string("a\x7f")}) {
    EXPECT_EQ(ClientSecretRefusal(secret),
              "the client secret holds a control character (a line break, a tab, ...)");
  }
}

TEST(SignInClientTest, ItsRowsShowTheSecretAsSetAlone) {
  EXPECT_THAT(SignInClientRows(SignInClient()), IsEmpty());
  EXPECT_THAT(SignInClientRows({"app-7", "sk-client-1", {"read", "write"}}),
              ElementsAre("client id: app-7", "client secret: set", "oauth scopes: read, write"));
  EXPECT_THAT(SignInClientRows({"", "", {"read"}}), ElementsAre("oauth scopes: read"));
}

}  // namespace
}  // namespace bravebot
