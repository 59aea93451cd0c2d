// Signing in against the tests' authorization server, which refuses what a
// provider's would (tests/supervisor/testing/authorization_server.h): a
// passing sign-in here did every step of MCP's authorization specification.
#include "cli/sign_in.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "supervisor/auth/authorization_request.h"
#include "supervisor/servers/curl_library.h"
#include "supervisor/servers/http_fetch.h"
#include "tests/supervisor/testing/authorization_server.h"

namespace bravebot {
namespace {

using ::testing::AllOf;
using testing::AuthorizationServer;
using testing::AuthorizationServerOptions;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using testing::RecordedRequest;
using ::testing::StartsWith;

// libcurl as it is, but for where it connects: 127.0.0.1 at `here_port`,
// whatever host and port the url names. HttpClient gives every host it
// reaches as an item "::HOST:PORT" of CURLOPT_CONNECT_TO's list, which
// this makes; no header begins with "::". So a service declared elsewhere
// (http://mcp.example/mcp) is answered by the tests' server, as a service
// elsewhere would answer, its url never read as this machine's.
const CurlLibrary* real_curl = nullptr;
int here_port = 0;

curl_slist* AppendConnectingHere(curl_slist* list, const char* item) {
  if (std::string_view(item).starts_with("::")) {
    const std::string here = "::127.0.0.1:" + std::to_string(here_port);
    return real_curl->slist_append(list, here.c_str());
  }
  return real_curl->slist_append(list, item);
}

class SignInTest : public ::testing::Test {
 protected:
  // Signs in with `plan`, the browser following the authorization url as
  // a person's click would: to the server, and back to its redirect.
  Result<SignedIn> SignInWith(SignInPlan plan) { return SignInWith(std::move(plan), http_); }

  Result<SignedIn> SignInWith(SignInPlan plan, HttpClient& http) {
    plan.alias = "svc";
    plan.browser_time = std::chrono::seconds(5);
    std::optional<Result<SignedIn>> outcome;
    io_.restart();  // a check before may have stopped it
    boost::asio::co_spawn(
        io_,
        [&]() -> boost::asio::awaitable<void> {
          outcome = co_await SignIn(http, plan, [&](const std::string& url) { Browse(url); });
        },
        boost::asio::detached);
    boost::asio::steady_timer guard(io_, std::chrono::seconds(20));
    guard.async_wait([&](const boost::system::error_code& error) {
      if (!error) io_.stop();
    });
    while (!outcome && !io_.stopped()) io_.run_one();
    if (!outcome) return Error(ErrorCode::kSystem, "the sign-in did not end");
    return std::move(*outcome);
  }

  void Browse(const std::string& url) {
    opened_.push_back(url);
    browser_.Send(url, {"GET", {}, ""}, std::chrono::seconds(5),
                  {[this](const HttpResponseHead& head) {
                     if (!head.location.empty()) {
                       browser_.Send(head.location, {"GET", {}, ""}, std::chrono::seconds(5),
                                     {[](const HttpResponseHead&) {}, [](std::string_view) {},
                                      [](const Status&) {}});
                     }
                   },
                   [](std::string_view) {}, [](const Status&) {}});
  }

  // The service's answer to a tools/list with `token`.
  long StatusWith(AuthorizationServer& server, const std::string& token) {
    long status = 0;
    HttpClient client(io_, "check");
    client.Send(server.ServiceUrl(),
                {"POST",
                 {{"Content-Type", "application/json"}, {"Authorization", "Bearer " + token}},
                 R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})"},
                std::chrono::seconds(5),
                {[&](const HttpResponseHead& head) { status = head.status; },
                 [](std::string_view) {}, [&](const Status&) { io_.stop(); }});
    io_.restart();
    io_.run();
    return status;
  }

  static std::vector<std::string> Paths(const AuthorizationServer& server) {
    std::vector<std::string> paths;
    for (const RecordedRequest& request : server.Requests()) {
      paths.push_back(request.method + " " + request.target.substr(0, request.target.find('?')));
    }
    return paths;
  }

  boost::asio::io_context io_;
  HttpClient http_{io_, "svc"};
  HttpClient browser_{io_, "browser"};
  std::vector<std::string> opened_;
};

TEST_F(SignInTest, FromA401ARegisteredClientSignsInWithPkceForTheDeclaredUrl) {
  AuthorizationServer server;
  Result<SignedIn> signed_in = SignInWith({.service_url = server.ServiceUrl()});
  ASSERT_TRUE(signed_in) << signed_in.error().message();
  EXPECT_EQ(StatusWith(server, signed_in->access_token), 200);
  EXPECT_TRUE(signed_in->refresh_token);
  ASSERT_TRUE(signed_in->expires_at);
  EXPECT_GT(*signed_in->expires_at,
            std::chrono::duration_cast<std::chrono::seconds>(
                (std::chrono::system_clock::now() + std::chrono::minutes(59)).time_since_epoch())
                .count());
  EXPECT_EQ(signed_in->client_authentication, ClientAuthentication::kNone);
  EXPECT_FALSE(signed_in->client_secret);
  EXPECT_EQ(signed_in->token_endpoint, server.Issuer() + "/token");
  EXPECT_THAT(signed_in->client_id, StartsWith("registered-"));
  EXPECT_EQ(signed_in->scope, "mcp:read mcp:write");  // the challenge's
  EXPECT_THAT(Paths(server), ::testing::ElementsAre(
                                 "POST /mcp", "GET /.well-known/oauth-protected-resource/mcp",
                                 "GET /.well-known/oauth-authorization-server", "POST /register",
                                 "GET /authorize", "POST /token", "POST /mcp"));
  ASSERT_EQ(opened_.size(), 1u);
  EXPECT_THAT(opened_[0], HasSubstr("code_challenge_method=S256"));
  EXPECT_THAT(opened_[0], HasSubstr("resource=" + PercentEncode(server.ServiceUrl())));
  // No token went anywhere before there was one.
  std::vector<RecordedRequest> requests = server.Requests();
  EXPECT_THAT(requests.front().authorization, IsEmpty());
  EXPECT_THAT(requests.back().authorization, StartsWith("Bearer "));
}

TEST_F(SignInTest, AClientThePersonGaveIsUsedWithItsSecretAndNothingRegistered) {
  AuthorizationServer server({.client_id = "desk", .client_secret = "s3cret"});
  Result<SignedIn> signed_in = SignInWith({.service_url = server.ServiceUrl(),
                                           .client_id = "desk",
                                           .client_secret = "s3cret",
                                           .scopes = {"mcp:read"}});
  ASSERT_TRUE(signed_in) << signed_in.error().message();
  EXPECT_EQ(signed_in->client_id, "desk");
  EXPECT_EQ(signed_in->scope, "mcp:read");
  EXPECT_THAT(Paths(server), Not(Contains("POST /register")));
  EXPECT_THAT(opened_[0], HasSubstr("scope=mcp%3Aread&"));
  // The server takes both ways: Basic, RFC 8414's default, is the one used.
  EXPECT_EQ(server.SecretsSentBy("client_secret_basic"), 1);
  EXPECT_EQ(server.SecretsSentBy("client_secret_post"), 0);
  EXPECT_EQ(signed_in->client_authentication, ClientAuthentication::kSecretBasic);
  EXPECT_FALSE(signed_in->client_secret);  // the declared one stays in mcp.json
  // Without its secret the server refuses the code, and says so.
  Result<SignedIn> refused = SignInWith({.service_url = server.ServiceUrl(), .client_id = "desk"});
  ASSERT_FALSE(refused);
  EXPECT_THAT(refused.error().message(),
              AllOf(StartsWith("svc could not be signed in to: exchanging the code for tokens: "),
                    HasSubstr("invalid_client")));
}

// A client the person declared, with its secret, for the provider the
// service used to name. The service now names another authorization
// server, whose authorization page answers at once: nobody signs in there.
// Nobody can be asked (no terminal): the secret goes nowhere, and no
// browser is opened.
TEST_F(SignInTest, ADeclaredClientsSecretGoesToNoServerTheServiceMerelyNames) {
  AuthorizationServer elsewhere({.client_id = "desk", .any_resource = true});
  AuthorizationServer service(
      {.client_id = "desk", .client_secret = "s3cret", .authorization_server = elsewhere.Issuer()});
  Result<SignedIn> signed_in = SignInWith(
      {.service_url = service.ServiceUrl(), .client_id = "desk", .client_secret = "s3cret"});
  ASSERT_FALSE(signed_in);
  EXPECT_THAT(signed_in.error().message(),
              HasSubstr("svc could not be signed in to: choosing a client: the secret of client "
                        "desk would go to " +
                        elsewhere.Origin() +
                        ", an authorization server the service names elsewhere than itself: run "
                        "login at a terminal"));
  EXPECT_EQ(elsewhere.SecretsSentBy("client_secret_basic") +
                elsewhere.SecretsSentBy("client_secret_post"),
            0);
  EXPECT_EQ(elsewhere.TokensIssued("authorization_code"), 0);
}

// Asked, the person says whether it is the provider they made the client
// at: a yes sends it there, a no sends nothing.
TEST_F(SignInTest, ADeclaredClientsSecretGoesElsewhereOnlyOnThePersonsYes) {
  AuthorizationServer elsewhere(
      {.client_id = "desk", .client_secret = "s3cret", .any_resource = true});
  AuthorizationServer service({.authorization_server = elsewhere.Issuer()});
  std::vector<std::string> asked;
  auto answering = [&](bool yes) {
    return [&asked, yes](const std::string& question) {
      asked.push_back(question);
      return yes;
    };
  };
  Result<SignedIn> refused = SignInWith({.service_url = service.ServiceUrl(),
                                         .client_id = "desk",
                                         .client_secret = "s3cret",
                                         .ask = answering(false)});
  ASSERT_FALSE(refused);
  EXPECT_THAT(refused.error().message(), HasSubstr("you said no, so nothing was sent there"));
  EXPECT_EQ(elsewhere.SecretsSentBy("client_secret_basic"), 0);
  ASSERT_EQ(asked.size(), 1u);
  EXPECT_THAT(asked[0], HasSubstr("svc names " + elsewhere.Issuer() + " as where it signs in"));
  EXPECT_THAT(asked[0], HasSubstr("goes to its token endpoint at " + elsewhere.Origin()));
  EXPECT_THAT(asked[0], HasSubstr("Is that the provider you made client desk at? [y/N]"));

  Result<SignedIn> signed_in = SignInWith({.service_url = service.ServiceUrl(),
                                           .client_id = "desk",
                                           .client_secret = "s3cret",
                                           .ask = answering(true)});
  ASSERT_TRUE(signed_in) << signed_in.error().message();
  EXPECT_EQ(asked.size(), 2u);
  EXPECT_EQ(elsewhere.SecretsSentBy("client_secret_basic"), 1);
}

// The service's own origin is the provider's: nothing to ask.
TEST_F(SignInTest, ADeclaredClientsSecretGoesToTheServicesOwnOriginUnasked) {
  AuthorizationServer server({.client_id = "desk", .client_secret = "s3cret"});
  Result<SignedIn> signed_in = SignInWith({.service_url = server.ServiceUrl(),
                                           .client_id = "desk",
                                           .client_secret = "s3cret",
                                           .ask = [](const std::string& question) {
                                             ADD_FAILURE() << "asked: " << question;
                                             return false;
                                           }});
  ASSERT_TRUE(signed_in) << signed_in.error().message();
  EXPECT_EQ(server.SecretsSentBy("client_secret_basic"), 1);
}

TEST_F(SignInTest, AClientsSecretGoesTheOneWayTheServerTakesIt) {
  AuthorizationServer post_only(
      {.client_id = "desk", .client_secret = "s3cret", .secret_methods = {"client_secret_post"}});
  Result<SignedIn> posted = SignInWith(
      {.service_url = post_only.ServiceUrl(), .client_id = "desk", .client_secret = "s3cret"});
  ASSERT_TRUE(posted) << posted.error().message();
  EXPECT_EQ(post_only.SecretsSentBy("client_secret_post"), 1);
  EXPECT_EQ(posted->client_authentication, ClientAuthentication::kSecretPost);

  // A server that takes a secret no way this client sends one is refused
  // before the browser opens.
  AuthorizationServer neither(
      {.client_id = "desk", .client_secret = "s3cret", .secret_methods = {}});
  Result<SignedIn> refused = SignInWith(
      {.service_url = neither.ServiceUrl(), .client_id = "desk", .client_secret = "s3cret"});
  ASSERT_FALSE(refused);
  EXPECT_THAT(refused.error().message(), HasSubstr("token_endpoint_auth_methods_supported"));
  EXPECT_THAT(Paths(neither), Not(Contains("GET /authorize")));
}

TEST_F(SignInTest, ASecretTheServerGaveARegisteredClientIsKeptForRefreshing) {
  AuthorizationServer server({.registration_gives_secret = true});
  Result<SignedIn> signed_in = SignInWith({.service_url = server.ServiceUrl()});
  ASSERT_TRUE(signed_in) << signed_in.error().message();
  EXPECT_THAT(signed_in->client_secret, ::testing::Optional(StartsWith("registered-secret-")));
  EXPECT_EQ(signed_in->client_authentication, ClientAuthentication::kSecretBasic);
  EXPECT_EQ(server.SecretsSentBy("client_secret_basic"), 1);
}

TEST_F(SignInTest, A401WithoutAChallengeIsSignedInToByTheWellKnownUrls) {
  AuthorizationServer server({.sends_challenge = false});
  Result<SignedIn> signed_in = SignInWith({.service_url = server.ServiceUrl()});
  ASSERT_TRUE(signed_in) << signed_in.error().message();
  EXPECT_THAT(Paths(server), Contains("GET /.well-known/oauth-protected-resource/mcp"));
  // No challenge named a scope: every one the metadata lists is asked for.
  EXPECT_THAT(opened_.back(), HasSubstr("scope=mcp%3Aread%20mcp%3Awrite&"));
}

TEST_F(SignInTest, TheServicesDeclaredHeadersGoWithWhatIsSentToIt) {
  AuthorizationServer server;
  Result<SignedIn> signed_in =
      SignInWith({.service_url = server.ServiceUrl(), .service_headers = {{"X-Api-Key", "k-1"}}});
  ASSERT_TRUE(signed_in) << signed_in.error().message();
  std::vector<RecordedRequest> requests = server.Requests();
  ASSERT_FALSE(requests.empty());
  EXPECT_EQ(requests.front().target, "/mcp");
  EXPECT_EQ(requests.front().headers["x-api-key"], "k-1");
}

// The declared headers stay with the service's
// origin when its authorization server is elsewhere.
TEST_F(SignInTest, TheServicesDeclaredHeadersNeverGoToItsAuthorizationServerElsewhere) {
  AuthorizationServer elsewhere({.any_resource = true});
  AuthorizationServer service({.authorization_server = elsewhere.Issuer()});
  Result<SignedIn> signed_in =
      SignInWith({.service_url = service.ServiceUrl(), .service_headers = {{"X-Api-Key", "k-1"}}});
  ASSERT_TRUE(signed_in) << signed_in.error().message();
  ASSERT_FALSE(elsewhere.Requests().empty());
  for (const RecordedRequest& request : elsewhere.Requests()) {
    EXPECT_FALSE(request.headers.contains("x-api-key")) << request.method << " " << request.target;
  }
  EXPECT_EQ(service.Requests().front().headers["x-api-key"], "k-1");
}

// Nothing signing in fetches follows a redirect,
// from the service's first answer on.
TEST_F(SignInTest, AServiceThatRedirectsIsNotFollowed) {
  AuthorizationServer elsewhere;
  AuthorizationServer service({.service_redirect = elsewhere.ServiceUrl()});
  Result<SignedIn> signed_in = SignInWith({.service_url = service.ServiceUrl()});
  ASSERT_FALSE(signed_in);
  EXPECT_THAT(signed_in.error().message(), HasSubstr("it answered HTTP 307"));
  EXPECT_THAT(elsewhere.Requests(), IsEmpty());
  EXPECT_THAT(opened_, IsEmpty());
}

// A document past kMostFetched ends its transfer, and the sign-in there.
TEST_F(SignInTest, AnAuthorizationServersMetadataPastItsBoundIsRefused) {
  AuthorizationServer server({.metadata_padding = 2 * kMostFetched});
  Result<SignedIn> signed_in = SignInWith({.service_url = server.ServiceUrl()});
  ASSERT_FALSE(signed_in);
  EXPECT_THAT(signed_in.error().message(),
              HasSubstr("finding its authorization server's metadata"));
  EXPECT_THAT(signed_in.error().message(), HasSubstr("its answer is larger than 1024 KiB"));
  EXPECT_THAT(opened_, IsEmpty());
}

// A token answer nested past the JSON bound is no answer: no token kept.
TEST_F(SignInTest, ATokenAnswerNestedPastTheBoundIsRefused) {
  AuthorizationServer server({.token_answer = std::string(10000, '[') + std::string(10000, ']')});
  Result<SignedIn> signed_in = SignInWith({.service_url = server.ServiceUrl()});
  ASSERT_FALSE(signed_in);
  EXPECT_THAT(signed_in.error().message(), HasSubstr("exchanging the code for tokens"));
  EXPECT_THAT(signed_in.error().message(), HasSubstr("is not JSON"));
}

TEST_F(SignInTest, AClientMetadataDocumentComesBeforeRegistering) {
  const std::string document = "https://client.example/bravebot-mcp.json";
  AuthorizationServer server(
      {.client_id_metadata_documents = true,
       .client_documents = {
           {document, nlohmann::json{{"client_id", document},
                                     {"redirect_uris", {"http://127.0.0.1/callback"}}}
                          .dump()}}});
  Result<SignedIn> signed_in =
      SignInWith({.service_url = server.ServiceUrl(), .client_metadata_document = document});
  ASSERT_TRUE(signed_in) << signed_in.error().message();
  EXPECT_EQ(signed_in->client_id, document);
  EXPECT_THAT(Paths(server), Not(Contains("POST /register")));
}

TEST_F(SignInTest, WithoutANamedMetadataTheWellKnownPathsAreFollowed) {
  AuthorizationServer inserted({.challenge_names_metadata = false, .issuer_path = "/tenant"});
  Result<SignedIn> signed_in = SignInWith({.service_url = inserted.ServiceUrl()});
  ASSERT_TRUE(signed_in) << signed_in.error().message();
  EXPECT_THAT(Paths(inserted), Contains("GET /.well-known/oauth-authorization-server/tenant"));

  AuthorizationServer openid({.issuer_path = "/tenant", .openid_discovery_only = true});
  signed_in = SignInWith({.service_url = openid.ServiceUrl()});
  ASSERT_TRUE(signed_in) << signed_in.error().message();
  EXPECT_THAT(Paths(openid), Contains("GET /tenant/.well-known/openid-configuration"));
}

TEST_F(SignInTest, AnAnswerWithAnotherStateIsRefusedAndNoCodeExchanged) {
  AuthorizationServer server({.forged_state = "someone-elses"});
  Result<SignedIn> signed_in = SignInWith({.service_url = server.ServiceUrl()});
  ASSERT_FALSE(signed_in);
  EXPECT_THAT(signed_in.error().message(),
              AllOf(HasSubstr("waiting for the browser"), HasSubstr("another state")));
  EXPECT_THAT(Paths(server), Not(Contains("POST /token")));
}

TEST_F(SignInTest, AServerWithoutS256IsRefusedBeforeTheBrowserOpens) {
  AuthorizationServer server({.s256 = false});
  Result<SignedIn> signed_in = SignInWith({.service_url = server.ServiceUrl()});
  ASSERT_FALSE(signed_in);
  EXPECT_THAT(signed_in.error().message(), HasSubstr("S256"));
  EXPECT_THAT(opened_, IsEmpty());
}

TEST_F(SignInTest, NoWayToAClientSaysToGiveOne) {
  AuthorizationServer server({.dynamic_registration = false});
  Result<SignedIn> signed_in = SignInWith({.service_url = server.ServiceUrl()});
  ASSERT_FALSE(signed_in);
  EXPECT_THAT(signed_in.error().message(), HasSubstr("--client-id ID"));
  EXPECT_THAT(opened_, IsEmpty());
}

// A service elsewhere whose 401 names its metadata in plain http on this
// machine: refused before anything is fetched from there, where the
// machine's own ports would otherwise be read (and the service on this
// machine would be signed in to instead).
TEST_F(SignInTest, AServiceElsewhereNamingPlainHttpMetadataHereIsRefusedBeforeItIsFetched) {
  AuthorizationServer server;
  Result<const CurlLibrary*> loaded = LoadCurl();
  ASSERT_TRUE(loaded) << loaded.error().message();
  real_curl = *loaded;
  here_port = std::stoi(server.Origin().substr(server.Origin().rfind(':') + 1));
  CurlLibrary connecting_here = **loaded;
  connecting_here.slist_append = &AppendConnectingHere;
  HttpClient elsewhere(io_, "svc", connecting_here);

  Result<SignedIn> signed_in = SignInWith({.service_url = "http://mcp.example/mcp"}, elsewhere);
  ASSERT_FALSE(signed_in);
  EXPECT_EQ(signed_in.error().message(),
            "svc could not be signed in to: finding the service's protected resource metadata: "
            "the metadata url its 401 names is on this machine, which a service elsewhere cannot "
            "be signed in to through, so nothing was sent to it");
  // The service was asked, and nothing else: not its metadata, not its server.
  EXPECT_THAT(Paths(server), ::testing::ElementsAre("POST /mcp"));
  EXPECT_THAT(opened_, IsEmpty());

  // The same server, declared where it is, signs in: the refusal was the
  // service's being elsewhere.
  Result<SignedIn> here = SignInWith({.service_url = server.ServiceUrl()});
  EXPECT_TRUE(here) << here.error().message();
}

TEST_F(SignInTest, AServiceThatAsksNothingHasNoSignIn) {
  AuthorizationServer server;
  Result<SignedIn> signed_in = SignInWith({.service_url = server.Origin() + "/nothing"});
  ASSERT_FALSE(signed_in);
  EXPECT_THAT(signed_in.error().message(), HasSubstr("answered HTTP 404"));
}

}  // namespace
}  // namespace bravebot
