// A session's service signed in to with `bravebot-mcp login` (against the
// tests' authorization server, tests/supervisor/testing/authorization_server.h):
// the token goes with each request to where the service is declared, and
// never to where a yes to a move declares it next, which is kept even where
// the service there asks for a sign-in, so that login signs in there.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "integration/supervisor_fixture.h"
#include "tests/supervisor/testing/authorization_server.h"

namespace bravebot::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class ServiceSignInTest : public SupervisorTest {
 protected:
  // `bravebot-mcp login ALIAS`, the browser a script that follows the
  // authorization url as a person's click would.
  void Login(const std::string& alias) {
    const std::string browser = temporary_.Join("browser");
    std::ofstream(browser) << "#!/bin/sh\nexec curl -sS -L --max-redirs 3 -o /dev/null \"$1\"\n";
    ::chmod(browser.c_str(), 0755);
    std::vector<std::string> environment = Environment();
    environment.push_back("BROWSER=" + browser);
    CommandOutput login =
        RunCommand({OurProgram("bravebot-mcp"), "login", alias}, environment, temporary_.path());
    ASSERT_EQ(login.status, 0) << login.out << login.err;
  }

  // A token kept for `alias` at `origin`, as login keeps one.
  void PlantToken(const std::string& alias, const std::string& origin, const std::string& token) {
    Json got = Got(alias);
    ASSERT_TRUE(got.is_object());
    std::ofstream(Profile() + "/mcp-tokens") << Json{
        {"version", 1},
        {"tokens",
         Json::array({Json{{"alias", alias},
                           {"digest", got.value("digest", "")},
                           {"origin", origin},
                           {"access_token", token},
                           {"token_endpoint", origin + "/token"},
                           {"client_id", "c"}}})}}.dump();
    ::chmod((Profile() + "/mcp-tokens").c_str(), 0600);
  }

  // A session that started "svc", declared at `url` and signed in to;
  // nothing where it did not start (said as a failure).
  std::unique_ptr<SessionClient> SignedInAndStarted(const std::string& url) {
    Declare("svc", {"--http", url});
    Login("svc");
    Request({"svc"});
    auto session = Session();
    OpenAndApprove(*session);
    Json started = StartAndOffer(*session, "svc");
    if (!started.contains("result")) {
      ADD_FAILURE() << started.dump() << session->Log();
      return nullptr;
    }
    return session;
  }

  // What `get ALIAS --json` says of it.
  Json Got(const std::string& alias) const {
    return Json::parse(
        RunCommand({OurProgram("bravebot-mcp"), "get", alias, "--json"}, Environment()).out,
        nullptr, false);
  }

  // Nothing `server` was sent carried a token.
  static void ExpectNoTokenSentTo(const AuthorizationServer& server) {
    for (const RecordedRequest& request : server.Requests()) {
      EXPECT_EQ(request.authorization, "") << request.method << " " << request.target;
    }
  }

  Json Tokens() const {
    Json tokens = Json::parse(Slurp(Profile() + "/mcp-tokens"), nullptr, false);
    return tokens.is_object() ? tokens["tokens"] : Json::array();
  }
};

TEST_F(ServiceSignInTest, ASessionSendsTheTokenLoginKeptWithEachRequestToTheService) {
  AuthorizationServer server;
  Declare("svc", {"--http", server.ServiceUrl()});
  Login("svc");
  ASSERT_EQ(Tokens().size(), 1u);
  const std::string bearer = "Bearer " + Tokens()[0]["access_token"].get<std::string>();
  const std::size_t before = server.Requests().size();
  Request({"svc"});
  auto session = Session();
  OpenAndApprove(*session);

  Json started = StartAndOffer(*session, "svc");
  ASSERT_TRUE(started.contains("result")) << started.dump() << session->Log();
  EXPECT_THAT(started.dump(), HasSubstr("whoami"));
  Json call = session->Call("tool/call", {{"alias", "svc"}, {"tool", "whoami"}, {"answer", "1"}});
  EXPECT_EQ(call["result"]["state"], "ran") << call.dump() << session->Log();
  std::vector<RecordedRequest> requests = server.Requests();
  ASSERT_GT(requests.size(), before + 2);
  for (std::size_t i = before; i < requests.size(); ++i) {
    EXPECT_EQ(requests[i].authorization, bearer) << requests[i].method << " " << requests[i].body;
  }
}

// Logout says no session sends the tokens again: a session already running
// is one, which asks before each request whether its token is still kept.
TEST_F(ServiceSignInTest, ASessionRunningAtLogoutSendsTheTokenNoMore) {
  AuthorizationServer server;
  std::unique_ptr<SessionClient> session = SignedInAndStarted(server.ServiceUrl());
  ASSERT_TRUE(session);
  CommandOutput logout =
      RunCommand({OurProgram("bravebot-mcp"), "logout", "svc"}, Environment(), temporary_.path());
  ASSERT_EQ(logout.status, 0) << logout.err;
  ASSERT_TRUE(Tokens().empty());
  const std::size_t before = server.Requests().size();
  session->Call("tool/call", {{"alias", "svc"}, {"tool", "whoami"}, {"answer", "1"}});
  std::vector<RecordedRequest> requests = server.Requests();
  ASSERT_GT(requests.size(), before);
  for (std::size_t i = before; i < requests.size(); ++i) {
    EXPECT_EQ(requests[i].authorization, "") << requests[i].method << " " << requests[i].body;
  }
}

TEST_F(ServiceSignInTest, AYesToAMoveWhereTheServiceAsksForASignInIsKeptAndLoginSignsInThere) {
  AuthorizationServer elsewhere;
  AuthorizationServer moving(
      {.service_redirect = elsewhere.ServiceUrl(), .service_redirect_status = 308});
  Declare("svc", {"--http", moving.ServiceUrl()});
  PlantToken("svc", moving.Origin(), "planted-token");
  Request({"svc"});
  auto session = Session();
  OpenAndApprove(*session);

  Json asked = session->Call("server/start", {{"alias", "svc"}});
  ASSERT_EQ(asked["result"]["state"], "redirect") << asked.dump() << session->Log();
  EXPECT_EQ(asked["result"]["to"], elsewhere.ServiceUrl());
  const std::string question = asked["result"]["question"];
  EXPECT_THAT(question, HasSubstr("Its sign-in (bravebot-mcp login) is for where it is declared"));
  EXPECT_THAT(question, Not(HasSubstr("add --header")));
  ASSERT_EQ(moving.Requests().size(), 1u);
  EXPECT_EQ(moving.Requests()[0].authorization, "Bearer planted-token");
  EXPECT_TRUE(elsewhere.Requests().empty());

  // Yes: the token stays behind, the new address asks for a sign-in, and
  // the move is kept all the same, so that login signs in there.
  Json moved = session->Call("redirect/answer", {{"alias", "svc"}, {"answer", "y"}});
  ASSERT_TRUE(moved.contains("error")) << moved.dump() << session->Log();
  EXPECT_THAT(moved["error"]["message"].get<std::string>(),
              HasSubstr("svc answered POST with HTTP 401: it asks for a sign-in, which "
                        "`bravebot-mcp login svc` makes"));
  EXPECT_EQ(moved["error"]["data"]["step"], "sign-in-needed");
  EXPECT_EQ(moved["error"]["data"]["movedTo"], elsewhere.ServiceUrl());
  EXPECT_FALSE(moved["error"]["data"].contains("moveNote")) << moved.dump();
  ASSERT_FALSE(elsewhere.Requests().empty());
  ExpectNoTokenSentTo(elsewhere);
  session->Call("session/close");

  EXPECT_EQ(Got("svc").value("url", ""), elsewhere.ServiceUrl());
  EXPECT_TRUE(Tokens().empty()) << Tokens().dump();

  Login("svc");
  ASSERT_EQ(Tokens().size(), 1u);
  EXPECT_EQ(Tokens()[0]["origin"], elsewhere.Origin());
  const std::string bearer = "Bearer " + Tokens()[0]["access_token"].get<std::string>();
  const std::size_t before = elsewhere.Requests().size();
  auto next = Session();
  next->Call("session/open", {{"directory", Checkout()}});
  Json started = StartAndOffer(*next, "svc");
  ASSERT_TRUE(started.contains("result")) << started.dump() << next->Log();
  EXPECT_THAT(started.dump(), HasSubstr("whoami"));
  EXPECT_EQ(moving.Requests().size(), 1u);
  std::vector<RecordedRequest> there = elsewhere.Requests();
  ASSERT_GT(there.size(), before);
  for (std::size_t i = before; i < there.size(); ++i) {
    EXPECT_EQ(there[i].authorization, bearer) << there[i].method << " " << there[i].body;
  }
}

TEST_F(ServiceSignInTest, AYesToAMoveACallMeetsIsKeptWhereTheServiceAsksForASignIn) {
  AuthorizationServer elsewhere;
  AuthorizationServer moving({.service_redirect = elsewhere.ServiceUrl(),
                              .service_redirect_status = 307,
                              .redirect_only_calls = true});
  std::unique_ptr<SessionClient> session = SignedInAndStarted(moving.ServiceUrl());
  ASSERT_TRUE(session);

  Json asked = session->Call("tool/call", {{"alias", "svc"}, {"tool", "whoami"}, {"answer", "1"}});
  ASSERT_EQ(asked["result"]["state"], "redirect") << asked.dump() << session->Log();
  Json moved = session->Call("redirect/answer", {{"alias", "svc"}, {"answer", "y"}});
  ASSERT_TRUE(moved.contains("error")) << moved.dump() << session->Log();
  EXPECT_THAT(moved["error"]["message"].get<std::string>(),
              HasSubstr("svc moved to " + elsewhere.ServiceUrl() +
                        ", kept by your yes, where svc answered POST with HTTP 401: it asks for a "
                        "sign-in, which `bravebot-mcp login svc` makes"));
  ExpectNoTokenSentTo(elsewhere);
  session->Call("session/close");

  EXPECT_EQ(Got("svc").value("url", ""), elsewhere.ServiceUrl());
  EXPECT_TRUE(Tokens().empty()) << Tokens().dump();
}

}  // namespace
}  // namespace bravebot::testing
