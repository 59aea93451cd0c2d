#include "supervisor/auth/authorization_request.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "supervisor/auth/client_registration.h"
#include "supervisor/auth/oauth_document.h"

namespace bravebot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::Pair;

AuthorizationRequest Request() {
  return {.authorization_endpoint = "https://auth.example.com/authorize",
          .client_id = "https://bravebot.example/client.json",
          .redirect_uri = LoopbackRedirectUri(51234),
          .code_challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
          .state = "af0ifjsldkj",
          .scope = "files:read files:write",
          .resource = "https://mcp.example.com/mcp"};
}

TEST(AuthorizationRequestTest, PercentEncodesAllButTheUnreserved) {
  EXPECT_EQ(PercentEncode("aZ09-._~"), "aZ09-._~");
  EXPECT_EQ(PercentEncode("a b+c&d=e/f?g#h%"), "a%20b%2Bc%26d%3De%2Ff%3Fg%23h%25");
  EXPECT_EQ(PercentEncode("\xc3\xa9"), "%C3%A9");
}

TEST(AuthorizationRequestTest, TheAuthorizationUrlHoldsEveryField) {
  EXPECT_EQ(AuthorizationUrl(Request()),
            "https://auth.example.com/authorize?response_type=code"
            "&client_id=https%3A%2F%2Fbravebot.example%2Fclient.json"
            "&redirect_uri=http%3A%2F%2F127.0.0.1%3A51234%2Fcallback"
            "&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
            "&code_challenge_method=S256&state=af0ifjsldkj"
            "&scope=files%3Aread%20files%3Awrite"
            "&resource=https%3A%2F%2Fmcp.example.com%2Fmcp");
}

TEST(AuthorizationRequestTest, AnEndpointsOwnQueryIsKeptAndNoScopeIsLeftOut) {
  AuthorizationRequest request = Request();
  request.authorization_endpoint = "https://auth.example.com/authorize?tenant=a";
  request.scope.reset();
  const std::string url = AuthorizationUrl(request);
  EXPECT_THAT(url, HasSubstr("/authorize?tenant=a&response_type=code&"));
  EXPECT_THAT(url, Not(HasSubstr("scope=")));
  auto fields = FormDecode(url.substr(url.find('?') + 1));
  ASSERT_TRUE(fields.has_value());
  EXPECT_THAT(*fields, testing::Contains(Pair("resource", "https://mcp.example.com/mcp")));
}

TEST(AuthorizationRequestTest, FormDecodeReadsPlusAndEscapes) {
  auto fields = FormDecode("a=b+c&d=%2F%c3%a9&&e&=f");
  ASSERT_TRUE(fields.has_value());
  EXPECT_THAT(*fields,
              ElementsAre(Pair("a", "b c"), Pair("d", "/\xc3\xa9"), Pair("e", ""), Pair("", "f")));
  EXPECT_FALSE(FormDecode("a=%2").has_value());
  EXPECT_FALSE(FormDecode("a=%zz").has_value());
  EXPECT_FALSE(FormDecode("a=%").has_value());
}

TEST(AuthorizationRequestTest, TheRedirectGivesItsCodeUnderTheRightState) {
  auto code =
      ReadAuthorizationRedirect("/callback?code=Splx%2FOzQ&state=af0ifjsldkj", "af0ifjsldkj");
  ASSERT_TRUE(code.ok()) << code.error().message();
  EXPECT_EQ(*code, "Splx/OzQ");
}

TEST(AuthorizationRequestTest, TheRedirectIsRefusedUnderAnotherState) {
  for (const char* target : {"/callback?code=c&state=other", "/callback?code=c",
                             "/callback?error=access_denied&state=other"}) {
    auto code = ReadAuthorizationRedirect(target, "af0ifjsldkj");
    ASSERT_FALSE(code.ok()) << target;
    EXPECT_THAT(code.error().message(), HasSubstr("another state")) << target;
  }
  EXPECT_FALSE(ReadAuthorizationRedirect("/elsewhere?code=c&state=s", "s").ok());
  EXPECT_FALSE(ReadAuthorizationRedirect("/callback?state=s", "s").ok());
  EXPECT_FALSE(ReadAuthorizationRedirect("/callback?code=%&state=s", "s").ok());
}

TEST(AuthorizationRequestTest, TheRedirectsErrorIsSaid) {
  auto code = ReadAuthorizationRedirect(
      "/callback?error=access_denied&error_description=The+person+said+no%1b%5b2J&state=s", "s");
  ASSERT_FALSE(code.ok());
  EXPECT_THAT(code.error().message(), HasSubstr("refused: access_denied: The person said no\\x1b"));
}

TEST(AuthorizationRequestTest, TheCodeGrantsBody) {
  const std::string body =
      AuthorizationCodeBody({.code = "Splx/OzQ",
                             .code_verifier = "dBjftJeZ4CVP",
                             .redirect_uri = LoopbackRedirectUri(8080),
                             .resource = "https://mcp.example.com/mcp",
                             .client_id = "s6BhdRkqt3",
                             .client_secret = "7Fjfp0ZBr1KtDRbnfVdmIw",
                             .authentication = ClientAuthentication::kSecretPost});
  EXPECT_EQ(body,
            "grant_type=authorization_code&code=Splx%2FOzQ"
            "&redirect_uri=http%3A%2F%2F127.0.0.1%3A8080%2Fcallback&code_verifier=dBjftJeZ4CVP"
            "&resource=https%3A%2F%2Fmcp.example.com%2Fmcp&client_id=s6BhdRkqt3"
            "&client_secret=7Fjfp0ZBr1KtDRbnfVdmIw");
  AuthorizationCodeGrant public_client;
  public_client.code = "c";
  public_client.client_id = "x";
  EXPECT_THAT(AuthorizationCodeBody(public_client), Not(HasSubstr("client_secret")));
}

TEST(AuthorizationRequestTest, ASecretSentByBasicIsInTheHeaderAndNotTheForm) {
  RefreshGrant grant;
  grant.refresh_token = "r";
  grant.client_id = "s6BhdRkqt3";
  grant.client_secret = "gX1fBat3bV";
  grant.authentication = ClientAuthentication::kSecretBasic;
  EXPECT_THAT(RefreshBody(grant), Not(HasSubstr("gX1fBat3bV")));
  EXPECT_THAT(RefreshBody(grant), HasSubstr("client_id=s6BhdRkqt3"));
  // RFC 6749 section 2.3.1's example client, its id and secret form-encoded first.
  EXPECT_EQ(ClientAuthorization("s6BhdRkqt3", "gX1fBat3bV", ClientAuthentication::kSecretBasic),
            "Basic czZCaGRSa3F0MzpnWDFmQmF0M2JW");
  EXPECT_EQ(ClientAuthorization("a b", "c:d", ClientAuthentication::kSecretBasic),
            "Basic " + std::string("YSUyMGI6YyUzQWQ="));
  EXPECT_EQ(ClientAuthorization("s6BhdRkqt3", "gX1fBat3bV", ClientAuthentication::kSecretPost),
            std::nullopt);
  EXPECT_EQ(ClientAuthorization("s6BhdRkqt3", std::nullopt, ClientAuthentication::kSecretBasic),
            std::nullopt);
}

TEST(AuthorizationRequestTest, ASecretGoesTheWayTheServerTakesBasicFirst) {
  using Methods = std::optional<std::vector<std::string>>;
  EXPECT_EQ(*ChooseClientAuthentication(std::nullopt, false), ClientAuthentication::kNone);
  // RFC 8414: client_secret_basic where the metadata lists none.
  EXPECT_EQ(*ChooseClientAuthentication(std::nullopt, true), ClientAuthentication::kSecretBasic);
  EXPECT_EQ(
      *ChooseClientAuthentication(Methods({"client_secret_post", "client_secret_basic"}), true),
      ClientAuthentication::kSecretBasic);
  EXPECT_EQ(*ChooseClientAuthentication(Methods({"none", "client_secret_post"}), true),
            ClientAuthentication::kSecretPost);
  Result<ClientAuthentication> neither =
      ChooseClientAuthentication(Methods({"private_key_jwt"}), true);
  ASSERT_FALSE(neither.ok());
  EXPECT_THAT(neither.error().message(), HasSubstr("token_endpoint_auth_methods_supported"));
  for (ClientAuthentication way : {ClientAuthentication::kNone, ClientAuthentication::kSecretBasic,
                                   ClientAuthentication::kSecretPost}) {
    EXPECT_EQ(ClientAuthenticationNamed(ClientAuthenticationName(way)), way);
  }
  EXPECT_EQ(ClientAuthenticationNamed("private_key_jwt"), std::nullopt);
}

TEST(AuthorizationRequestTest, TheRefreshGrantsBody) {
  RefreshGrant grant;
  grant.refresh_token = "tGzv3JOkF0XG5Qx2TlKWIA";
  grant.resource = "https://mcp.example.com/mcp";
  grant.client_id = "s6BhdRkqt3";
  EXPECT_EQ(RefreshBody(grant),
            "grant_type=refresh_token&refresh_token=tGzv3JOkF0XG5Qx2TlKWIA"
            "&resource=https%3A%2F%2Fmcp.example.com%2Fmcp&client_id=s6BhdRkqt3");
}

TEST(AuthorizationRequestTest, ReadsATokenResponse) {
  auto response = ParseTokenResponse(
      R"({"access_token":"2YotnFZFEjr1zCsicMWpAA","token_type":"bearer","expires_in":3600,
          "refresh_token":"tGzv3JOkF0XG5Qx2TlKWIA","scope":"files:read"})");
  ASSERT_TRUE(response.ok()) << response.error().message();
  EXPECT_EQ(response->access_token, "2YotnFZFEjr1zCsicMWpAA");
  EXPECT_EQ(response->expires_in, 3600);
  EXPECT_EQ(response->refresh_token, "tGzv3JOkF0XG5Qx2TlKWIA");
  EXPECT_EQ(response->scope, "files:read");
  // A line break in a token would end the Authorization header early and
  // write the server's own after it.
  EXPECT_FALSE(ParseTokenResponse(R"({"access_token":"a\r\nX-Evil: 1","token_type":"Bearer"})"));
  EXPECT_FALSE(
      ParseTokenResponse(R"({"access_token":"a","token_type":"Bearer","refresh_token":"r\nx"})"));
  EXPECT_FALSE(IsSendableToken("a b"));
  EXPECT_TRUE(IsSendableToken("2YotnFZFEjr1zCsicMWpAA-._~+/="));
  auto lean = ParseTokenResponse(R"({"access_token":"a","token_type":"Bearer"})");
  ASSERT_TRUE(lean.ok());
  EXPECT_FALSE(lean->expires_in.has_value());
  EXPECT_FALSE(lean->refresh_token.has_value());
  auto quoted =
      ParseTokenResponse(R"({"access_token":"a","token_type":"BEARER","expires_in":"60"})");
  ASSERT_TRUE(quoted.ok());
  EXPECT_EQ(quoted->expires_in, 60);
}

TEST(AuthorizationRequestTest, RefusesATokenResponseItCannotUse) {
  for (const char* body : {
           "",
           "[]",
           R"({"token_type":"Bearer"})",
           R"({"access_token":"","token_type":"Bearer"})",
           R"({"access_token":"a"})",
           R"({"access_token":"a","token_type":"mac"})",
           R"({"access_token":"a","token_type":"DPoP"})",
           R"({"access_token":"a","token_type":"Bearer","expires_in":-1})",
           R"({"access_token":"a","token_type":"Bearer","expires_in":1.5})",
           R"({"access_token":"a","token_type":"Bearer","expires_in":"soon"})",
           R"({"access_token":7,"token_type":"Bearer"})",
       }) {
    EXPECT_FALSE(ParseTokenResponse(body).ok()) << body;
  }
  auto secret = ParseTokenResponse(R"({"access_token":"s3cr3t","token_type":"mac"})");
  ASSERT_FALSE(secret.ok());
  EXPECT_THAT(secret.error().message(), Not(HasSubstr("s3cr3t")));
}

TEST(AuthorizationRequestTest, KeepsNoValueOfAServerLargerThanSixteenKiB) {
  // What a sign-in keeps in mcp-tokens is read again before each request a
  // session sends: a server does not choose how large it is.
  const std::string most(kMaxOAuthString, 'a');
  const std::string more(kMaxOAuthString + 1, 'a');
  auto token = [](const std::string& access, const std::string& refresh, const std::string& scope) {
    return ParseTokenResponse(R"({"access_token":")" + access +
                              R"(","token_type":"Bearer","refresh_token":")" + refresh +
                              R"(","scope":")" + scope + R"("})");
  };
  EXPECT_TRUE(token(most, most, most).ok());
  for (const auto& refused :
       {token(more, "r", "s"), token("a", more, "s"), token("a", "r", more)}) {
    ASSERT_FALSE(refused.ok());
    EXPECT_THAT(refused.error().message(), HasSubstr("of more than 16 KiB"));
    EXPECT_THAT(refused.error().message(), Not(HasSubstr(more)));
  }
  EXPECT_FALSE(ParseRegistrationResponse(R"({"client_id":")" + more + R"("})").ok());
  EXPECT_FALSE(
      ParseRegistrationResponse(R"({"client_id":"c","client_secret":")" + more + R"("})").ok());
}

TEST(AuthorizationRequestTest, ReadsAnOAuthError) {
  auto error =
      ParseOAuthError(R"({"error":"invalid_grant","error_description":"the code\nhas expired"})");
  ASSERT_TRUE(error.ok()) << error.error().message();
  EXPECT_EQ(error->error, "invalid_grant");
  EXPECT_EQ(error->Shown(), "invalid_grant: the code\\nhas expired");
  // A server's words are cut short, before a character and never inside one.
  const OAuthErrorResponse long_one{std::string(150, 'e'),
                                    std::string(499, 'd') +
                                        "\xc3\xa9"
                                        "xyz",
                                    std::nullopt};
  EXPECT_EQ(long_one.Shown(), std::string(100, 'e') + ": " + std::string(499, 'd'));
  EXPECT_FALSE(ParseOAuthError(R"({"error_description":"x"})").ok());
  EXPECT_FALSE(ParseOAuthError("<html>").ok());
}

}  // namespace
}  // namespace bravebot
