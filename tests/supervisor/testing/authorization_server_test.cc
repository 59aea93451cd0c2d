// The sign-in tests' authorization server refuses what a provider's would:
// checked here by hand, step by step, so that a sign-in test passing means
// the client did each step right.
#include "tests/supervisor/testing/authorization_server.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include "supervisor/servers/http_client.h"

namespace bravebot {
namespace {

using testing::AuthorizationServer;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using Json = nlohmann::json;

// RFC 7636, appendix B.
constexpr char kVerifier[] = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
constexpr char kChallenge[] = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
constexpr char kRedirect[] = "http://127.0.0.1:4711/callback";

struct Answer {
  HttpResponseHead head;
  std::string body;
};

class AuthorizationServerTest : public ::testing::Test {
 protected:
  Answer Fetch(const std::string& method, const std::string& url, const std::string& body = "",
               const std::vector<std::pair<std::string, std::string>>& headers = {}) {
    Answer answer;
    HttpRequest request{method, headers, body};
    if (method == "POST" && headers.empty()) {
      request.headers = {{"Content-Type", "application/x-www-form-urlencoded"}};
    }
    http_.Send(url, request, std::chrono::seconds(5),
               {[&](const HttpResponseHead& head) { answer.head = head; },
                [&](std::string_view bytes) { answer.body += bytes; },
                [&](const Status&) { io_.stop(); }});
    boost::asio::steady_timer guard(io_, std::chrono::seconds(10));
    guard.async_wait([&](const boost::system::error_code& error) {
      if (!error) io_.stop();
    });
    io_.restart();
    io_.run();
    return answer;
  }

  // The code the authorization endpoint redirects to kRedirect with.
  std::string Authorize(AuthorizationServer& server, const std::string& client_id,
                        const std::string& resource) {
    Answer answer =
        Fetch("GET", server.Issuer() + "/authorize?response_type=code&client_id=" + client_id +
                         "&redirect_uri=" + kRedirect + "&code_challenge=" + kChallenge +
                         "&code_challenge_method=S256&state=st&resource=" + resource);
    EXPECT_EQ(answer.head.status, 302) << answer.body;
    std::string location = answer.head.location;
    EXPECT_THAT(location, StartsWith(std::string(kRedirect) + "?code="));
    EXPECT_THAT(location, HasSubstr("&state=st"));
    std::size_t code = location.find("code=") + 5;
    return location.substr(code, location.find('&', code) - code);
  }

  Answer Exchange(AuthorizationServer& server, const std::string& client_id,
                  const std::string& code, const std::string& verifier) {
    return Fetch("POST", server.Issuer() + "/token",
                 "grant_type=authorization_code&client_id=" + client_id + "&code=" + code +
                     "&redirect_uri=" + kRedirect + "&code_verifier=" + verifier +
                     "&resource=" + server.ServiceUrl());
  }

  Answer Call(AuthorizationServer& server, const std::string& token) {
    return Fetch("POST", server.ServiceUrl(), R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})",
                 {{"Content-Type", "application/json"}, {"Authorization", "Bearer " + token}});
  }

  boost::asio::io_context io_;
  HttpClient http_{io_, "auth"};
};

TEST_F(AuthorizationServerTest, TheServiceNamesItsMetadataWhichNamesTheServer) {
  AuthorizationServer server({.issuer_path = "/tenant"});
  Answer refused = Call(server, "none");
  EXPECT_EQ(refused.head.status, 401);
  EXPECT_EQ(refused.head.www_authenticate,
            "Bearer resource_metadata=\"" + server.Origin() +
                "/.well-known/oauth-protected-resource/mcp\", scope=\"mcp:read mcp:write\"");
  Json resource =
      Json::parse(Fetch("GET", server.Origin() + "/.well-known/oauth-protected-resource/mcp").body);
  EXPECT_EQ(resource["resource"], server.ServiceUrl());
  EXPECT_EQ(resource["authorization_servers"][0], server.Origin() + "/tenant");
  // RFC 8414's path insertion, not the issuer's path with the suffix after it.
  EXPECT_EQ(Fetch("GET", server.Issuer() + "/.well-known/oauth-authorization-server").head.status,
            404);
  Json metadata = Json::parse(
      Fetch("GET", server.Origin() + "/.well-known/oauth-authorization-server/tenant").body);
  EXPECT_EQ(metadata["issuer"], server.Issuer());
  EXPECT_EQ(metadata["registration_endpoint"], server.Issuer() + "/register");
}

TEST_F(AuthorizationServerTest, ACodeIsExchangedOnceAndOnlyWithItsVerifier) {
  AuthorizationServer server({.client_id = "desk", .client_secret = "s3"});
  std::string code = Authorize(server, "desk", server.ServiceUrl());
  Answer wrong = Exchange(server, "desk", code, std::string(kVerifier) + "x");
  EXPECT_EQ(wrong.head.status, 400);
  EXPECT_THAT(wrong.body, HasSubstr("invalid_client"));  // no secret yet
  code = Authorize(server, "desk", server.ServiceUrl());
  wrong = Fetch("POST", server.Issuer() + "/token",
                "grant_type=authorization_code&client_id=desk&client_secret=s3&code=" + code +
                    "&redirect_uri=" + kRedirect + "&code_verifier=" + kVerifier + "x" +
                    "&resource=" + server.ServiceUrl());
  EXPECT_THAT(wrong.body, HasSubstr("PKCE verification failed"));
  code = Authorize(server, "desk", server.ServiceUrl());
  std::string right = "grant_type=authorization_code&client_id=desk&client_secret=s3&code=" + code +
                      "&redirect_uri=" + kRedirect + "&code_verifier=" + kVerifier +
                      "&resource=" + server.ServiceUrl();
  Answer tokens = Fetch("POST", server.Issuer() + "/token", right);
  ASSERT_EQ(tokens.head.status, 200) << tokens.body;
  Json issued = Json::parse(tokens.body);
  EXPECT_EQ(issued["token_type"], "Bearer");
  EXPECT_EQ(Call(server, issued["access_token"]).head.status, 200);
  EXPECT_THAT(Fetch("POST", server.Issuer() + "/token", right).body, HasSubstr("used code"));
}

TEST_F(AuthorizationServerTest, ARegisteredClientRefreshesOnceEachRefreshToken) {
  AuthorizationServer server({.token_lifetime = std::chrono::seconds(60)});
  Answer registered =
      Fetch("POST", server.Issuer() + "/register",
            R"({"redirect_uris": ["http://127.0.0.1:1/callback"], "client_name": "t"})",
            {{"Content-Type", "application/json"}});
  ASSERT_EQ(registered.head.status, 201) << registered.body;
  std::string client = Json::parse(registered.body)["client_id"];
  // Registered on port 1, authorized on another: loopback ports are free.
  Json tokens = Json::parse(
      Exchange(server, client, Authorize(server, client, server.ServiceUrl()), kVerifier).body);
  server.ExpireAccessTokens();
  Answer expired = Call(server, tokens["access_token"]);
  EXPECT_EQ(expired.head.status, 401);
  EXPECT_THAT(expired.head.www_authenticate, HasSubstr("error=\"invalid_token\""));
  std::string refresh = "grant_type=refresh_token&client_id=" + client +
                        "&refresh_token=" + tokens["refresh_token"].get<std::string>() +
                        "&resource=" + server.ServiceUrl();
  Json renewed = Json::parse(Fetch("POST", server.Issuer() + "/token", refresh).body);
  EXPECT_EQ(Call(server, renewed["access_token"]).head.status, 200);
  EXPECT_EQ(Fetch("POST", server.Issuer() + "/token", refresh).head.status, 400);
  EXPECT_EQ(server.TokensIssued("refresh_token"), 1);
}

TEST_F(AuthorizationServerTest, AResourceNotTheServiceAndATokenForAnotherAreRefused) {
  AuthorizationServer server({.client_id = "desk"});
  Answer refused =
      Fetch("GET", server.Issuer() +
                       "/authorize?response_type=code&client_id=desk&redirect_uri=" + kRedirect +
                       "&code_challenge=" + kChallenge + "&code_challenge_method=S256&state=st");
  EXPECT_THAT(refused.head.location, HasSubstr("error=invalid_request"));
  EXPECT_THAT(refused.head.location, HasSubstr("resource%20is%20not"));

  AuthorizationServer elsewhere({.client_id = "desk", .audience_instead = "https://other/mcp"});
  Json tokens = Json::parse(
      Exchange(elsewhere, "desk", Authorize(elsewhere, "desk", elsewhere.ServiceUrl()), kVerifier)
          .body);
  EXPECT_EQ(Call(elsewhere, tokens["access_token"]).head.status, 401);
}

TEST_F(AuthorizationServerTest, AForgedStateComesBackInsteadOfTheClients) {
  AuthorizationServer server({.client_id = "desk", .forged_state = "evil"});
  Answer answer =
      Fetch("GET", server.Issuer() + "/authorize?response_type=code&client_id=desk&redirect_uri=" +
                       kRedirect + "&code_challenge=" + kChallenge +
                       "&code_challenge_method=S256&state=st&resource=" + server.ServiceUrl());
  EXPECT_THAT(answer.head.location, HasSubstr("&state=evil"));
}

}  // namespace
}  // namespace bravebot
