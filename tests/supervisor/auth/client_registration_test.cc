#include "supervisor/auth/client_registration.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace bravebot {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(ClientRegistrationTest, AsksForAPublicClientWithTheLoopbackAlone) {
  const nlohmann::json body =
      nlohmann::json::parse(RegistrationBody("http://127.0.0.1:5000/callback"));
  EXPECT_EQ(body["redirect_uris"], nlohmann::json::array({"http://127.0.0.1:5000/callback"}));
  EXPECT_EQ(body["token_endpoint_auth_method"], "none");
  EXPECT_EQ(body["grant_types"], nlohmann::json::array({"authorization_code", "refresh_token"}));
}

TEST(ClientRegistrationTest, APublicClientIsItsIdAlone) {
  auto client =
      ParseRegistrationResponse(R"({"client_id":"c1","token_endpoint_auth_method":"none"})");
  ASSERT_TRUE(client.ok()) << client.error().message();
  EXPECT_EQ(client->client_id, "c1");
  EXPECT_FALSE(client->client_secret);
  EXPECT_EQ(client->authentication, ClientAuthentication::kNone);
}

TEST(ClientRegistrationTest, ASecretGivenAfterAllIsSentTheWayItWasRegistered) {
  auto basic = ParseRegistrationResponse(R"({"client_id":"c1","client_secret":"s1"})");
  ASSERT_TRUE(basic.ok()) << basic.error().message();
  EXPECT_EQ(basic->client_secret, "s1");
  EXPECT_EQ(basic->authentication, ClientAuthentication::kSecretBasic);

  auto post = ParseRegistrationResponse(
      R"({"client_id":"c1","client_secret":"s1","token_endpoint_auth_method":"client_secret_post"})");
  ASSERT_TRUE(post.ok()) << post.error().message();
  EXPECT_EQ(post->authentication, ClientAuthentication::kSecretPost);

  for (const char* method : {"private_key_jwt", "none"}) {
    auto unknown = ParseRegistrationResponse(
        std::string(
            R"({"client_id":"c1","client_secret":"s3cr3t","token_endpoint_auth_method":")") +
        method + "\"}");
    ASSERT_FALSE(unknown.ok()) << method;
    EXPECT_THAT(unknown.error().message(), HasSubstr("token_endpoint_auth_method"));
    EXPECT_THAT(unknown.error().message(), Not(HasSubstr("s3cr3t")));
  }
}

TEST(ClientRegistrationTest, AnAnswerWithoutAClientIdIsRefused) {
  EXPECT_FALSE(ParseRegistrationResponse(R"({"client_secret":"s"})").ok());
  EXPECT_FALSE(ParseRegistrationResponse(R"({"client_id":""})").ok());
  EXPECT_FALSE(ParseRegistrationResponse(R"({"client_id":7})").ok());
  EXPECT_FALSE(ParseRegistrationResponse("[]").ok());
}

}  // namespace
}  // namespace bravebot
