// bravebot-mcp login and logout against the tests' authorization server
// (tests/supervisor/testing/authorization_server.h), the browser a script
// named by $BROWSER that follows the authorization url as a person's click
// would: to the server, and on to the loopback it redirects to.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "integration/profile_fixture.h"
#include "integration/running_command.h"
#include "tests/supervisor/testing/authorization_server.h"

namespace bravebot::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::RecordedRequest;
using Json = nlohmann::json;

class LoginTest : public ProfileTest {
 protected:
  void SetUp() override {
    std::ofstream(Browser()) << "#!/bin/sh\nexec curl -sS -L --max-redirs 3 -o /dev/null \"$1\"\n";
    ::chmod(Browser().c_str(), 0755);
  }
  std::string Browser() const { return temporary_.Join("browser"); }

  CommandOutput Run(const std::string& command, const std::string& alias,
                    std::vector<std::string> environment = {}) const {
    std::vector<std::string> whole = Environment();
    whole.push_back("BROWSER=" + Browser());
    whole.insert(whole.end(), environment.begin(), environment.end());
    return RunCommand({OurProgram("bravebot-mcp"), command, alias}, whole, temporary_.path());
  }

  std::string Digest(const std::string& alias) const {
    Json got = Json::parse(Mcp({"get", alias, "--json"}).out, nullptr, false);
    return got.is_object() ? got.value("digest", "") : "";
  }

  std::string Short(const std::string& alias) const { return Digest(alias).substr(0, 8); }

  Json Tokens() const {
    Json tokens = Json::parse(Slurp(Profile() + "/mcp-tokens"), nullptr, false);
    return tokens.is_object() ? tokens["tokens"] : Json::array();
  }

  // Marks the token kept as long expired, as far as the entry knows.
  void ExpireKeptToken() const {
    Json file = Json::parse(Slurp(Profile() + "/mcp-tokens"));
    file["tokens"][0]["expires_at"] = 1000000000;
    std::ofstream(Profile() + "/mcp-tokens") << file.dump();
  }

  // Two mcp-run of an expired token at once (as two sessions, or a session
  // and mcp-run), at a server that answers a refresh slowly, so the second
  // comes while the first is under way: one refresh is sent, and both send
  // the token it gave.
  void ExpectTwoStartsShareOneRefresh(const AuthorizationServer& server) const {
    const size_t before = server.Requests().size();  // login's own
    CommandOutput runs[2];
    std::vector<std::thread> starts;
    for (CommandOutput& run : runs) {
      starts.emplace_back([&] {
        run = RunCommand({OurProgram("mcp-run"), "svc"}, Environment(), temporary_.path());
      });
    }
    for (std::thread& start : starts) start.join();
    for (const CommandOutput& run : runs) {
      EXPECT_EQ(run.status, 0) << run.err;
      EXPECT_THAT(run.out, HasSubstr("whoami"));
    }
    EXPECT_EQ(server.TokensIssued("refresh_token"), 1);
    const std::vector<RecordedRequest> requests = server.Requests();
    EXPECT_EQ(std::count_if(requests.begin(), requests.end(),
                            [](const RecordedRequest& request) {
                              return request.body.find("grant_type=refresh_token") !=
                                     std::string::npos;
                            }),
              1);
    const std::string kept = Tokens()[0]["access_token"];
    for (size_t i = before; i < requests.size(); ++i) {
      if (requests[i].target == "/mcp") {
        EXPECT_EQ(requests[i].authorization, "Bearer " + kept);
      }
    }
  }
};

TEST_F(LoginTest, ASignInIsKeptForTheDeclarationNeverShownAndForgottenAtLogout) {
  AuthorizationServer server;
  ASSERT_EQ(Mcp({"add", "svc", "--http", server.ServiceUrl()}).status, 0);
  CommandOutput login = Run("login", "svc");
  ASSERT_EQ(login.status, 0) << login.out << login.err;
  EXPECT_THAT(login.out, HasSubstr("To sign in to svc, open this address in a browser (opening "
                                   "it now):\n  " +
                                   server.Issuer() + "/authorize?"));
  EXPECT_THAT(login.out, HasSubstr("Signed in to svc until "));
  EXPECT_EQ(server.TokensIssued("authorization_code"), 1);

  struct stat file {};
  ASSERT_EQ(::stat((Profile() + "/mcp-tokens").c_str(), &file), 0);
  EXPECT_EQ(file.st_mode & 0777, 0600);
  Json tokens = Tokens();
  ASSERT_EQ(tokens.size(), 1u);
  EXPECT_EQ(tokens[0]["origin"], server.Origin());
  const std::string access = tokens[0]["access_token"];
  const std::string refresh = tokens[0]["refresh_token"];
  for (const std::string& shown :
       {login.out, login.err, Mcp({"get", "svc"}).out, Mcp({"list"}).out, Mcp({"doctor"}).out,
        Mcp({"get", "svc", "--json"}).out, Mcp({"list", "--json"}).out}) {
    EXPECT_THAT(shown, Not(HasSubstr(access)));
    EXPECT_THAT(shown, Not(HasSubstr(refresh)));
  }

  EXPECT_THAT(Mcp({"get", "svc"}).out, HasSubstr("unapproved  signed in until "));
  EXPECT_EQ(Json::parse(Mcp({"get", "svc", "--json"}).out)["signed_in"], true);
  // list and doctor say it on the service's row, and list --json as get's.
  EXPECT_THAT(Mcp({"list"}).out, HasSubstr("unapproved  " + Short("svc") + "  signed in until "));
  EXPECT_THAT(Mcp({"doctor"}).out, HasSubstr(Short("svc") + "  signed in until "));
  Json listed = Json::parse(Mcp({"list", "--json"}).out)["servers"][0];
  EXPECT_EQ(listed["signed_in"], true);
  EXPECT_EQ(listed["token_expires_at"], Tokens()[0]["expires_at"]);

  CommandOutput logout = Run("logout", "svc");
  EXPECT_EQ(logout.status, 0) << logout.err;
  EXPECT_EQ(logout.out, "Signed out of svc: its tokens are forgotten.\n");
  EXPECT_TRUE(Tokens().empty());
  EXPECT_THAT(Mcp({"get", "svc"}).out, Not(HasSubstr("signed in")));
  EXPECT_THAT(Mcp({"list"}).out, Not(HasSubstr("signed in")));
  EXPECT_EQ(Json::parse(Mcp({"list", "--json"}).out)["servers"][0]["signed_in"], false);
  EXPECT_EQ(Run("logout", "svc").out, "svc was not signed in: nothing changed\n");
}

TEST_F(LoginTest, ADeclarationChangedOrRemovedDropsItsTokens) {
  AuthorizationServer server;
  ASSERT_EQ(Mcp({"add", "svc", "--http", server.ServiceUrl()}).status, 0);
  ASSERT_EQ(Run("login", "svc").status, 0);
  ASSERT_EQ(Tokens().size(), 1u);
  ASSERT_EQ(Mcp({"add", "svc", "--http", server.Origin() + "/other"}).status, 0);
  EXPECT_TRUE(Tokens().empty());

  ASSERT_EQ(Mcp({"add", "svc", "--http", server.ServiceUrl()}).status, 0);
  ASSERT_EQ(Run("login", "svc").status, 0);
  ASSERT_EQ(Mcp({"remove", "svc"}).status, 0);
  EXPECT_TRUE(Tokens().empty());
}

TEST_F(LoginTest, AnUnreadableTokenFileIsSaidAfterListsRowsAndFailsIt) {
  ASSERT_EQ(Mcp({"add", "svc", "--http", "https://mcp.example.com/mcp"}).status, 0);
  std::ofstream(Profile() + "/mcp-tokens") << "{\"version\": 1, \"tokens\": [{\"alias\": 7}]}";
  for (const char* command : {"list", "doctor"}) {
    CommandOutput listed = Mcp({command});
    EXPECT_EQ(listed.status, 1) << command;
    EXPECT_THAT(listed.out, HasSubstr("  svc  http   unapproved  " + Short("svc") + "\n"));
    EXPECT_THAT(listed.err, HasSubstr(Profile() + "/mcp-tokens")) << command;
  }
  // Left as it was for the person to mend.
  EXPECT_EQ(Slurp(Profile() + "/mcp-tokens"), "{\"version\": 1, \"tokens\": [{\"alias\": 7}]}");
}

TEST_F(LoginTest, WhatHasNoSignInIsRefusedInWords) {
  AuthorizationServer server;
  ASSERT_EQ(Mcp({"add", "prog", "--", "/bin/cat"}).status, 0);
  CommandOutput program = Run("login", "prog");
  EXPECT_EQ(program.status, 1);
  EXPECT_THAT(program.err, HasSubstr("bravebot-mcp login: prog is a program, not a service"));

  ASSERT_EQ(
      Mcp({"add", "own", "--http", server.ServiceUrl(), "--header", "Authorization=Bearer abc"})
          .status,
      0);
  EXPECT_THAT(Run("login", "own").err, HasSubstr("sends an Authorization header of its own"));

  ASSERT_EQ(Mcp({"add", "svc", "--http", server.ServiceUrl()}).status, 0);
  CommandOutput incognito = Run("login", "svc", {"BRAVEBOT_INCOGNITO=1"});
  EXPECT_EQ(incognito.status, 1);
  EXPECT_THAT(incognito.err, HasSubstr("so nothing can be signed in to in one"));
  EXPECT_EQ(server.TokensIssued("authorization_code"), 0);

  CommandOutput nobody = Run("login", "nobody");
  EXPECT_EQ(nobody.status, 1);
  EXPECT_THAT(nobody.err, HasSubstr("nobody"));
}

TEST_F(LoginTest, AForgedAnswerIsRefusedWaitedPastAndSignsNothingIn) {
  AuthorizationServer server({.forged_state = "someone-elses"});
  ASSERT_EQ(Mcp({"add", "svc", "--http", server.ServiceUrl()}).status, 0);
  // The browser leaves a mark once the loopback has answered it.
  const std::string browsed = temporary_.Join("browsed");
  std::ofstream(Browser()) << "#!/bin/sh\ncurl -sS -L --max-redirs 3 -o /dev/null \"$1\"\ntouch "
                           << browsed << "\n";
  std::vector<std::string> environment = Environment();
  environment.push_back("BROWSER=" + Browser());
  const std::string err = temporary_.Join("login.err");
  RunningCommand login({OurProgram("bravebot-mcp"), "login", "svc"}, environment, temporary_.path(),
                       err);
  const Deadline deadline = In(std::chrono::seconds(20));
  while (::access(browsed.c_str(), F_OK) != 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_EQ(::access(browsed.c_str(), F_OK), 0) << Slurp(err);
  // Refused, said, and the sign-in still waits for its own answer: a page
  // cannot end it.
  EXPECT_THAT(Slurp(err), HasSubstr("An answer that is not this sign-in's (another state) came to "
                                    "the loopback and was refused; still waiting for the browser"));
  EXPECT_EQ(login.Wait(In(std::chrono::milliseconds(300))), std::nullopt);
  // SIGTERM: a shell starting a job in the background has it ignore
  // SIGINT, and a test run that way would wait on.
  ::kill(login.pid(), SIGTERM);
  EXPECT_EQ(login.Wait(In(std::chrono::seconds(5))), 128 + SIGTERM);
  EXPECT_TRUE(Tokens().empty());
  EXPECT_EQ(server.TokensIssued("authorization_code"), 0);
}

TEST_F(LoginTest, McpRunSendsTheTokenOnceSignedInAndSaysToSignInBefore) {
  AuthorizationServer server;
  ASSERT_EQ(Mcp({"add", "svc", "--http", server.ServiceUrl()}).status, 0);
  const std::vector<std::string> list = {OurProgram("mcp-run"), "svc"};
  CommandOutput before = RunCommand(list, Environment(), temporary_.path());
  EXPECT_EQ(before.status, 1);
  EXPECT_THAT(before.err, HasSubstr("svc answered POST with HTTP 401: it asks for a sign-in, "
                                    "which `bravebot-mcp login svc` makes"));
  ASSERT_EQ(Run("login", "svc").status, 0);
  CommandOutput listed = RunCommand(list, Environment(), temporary_.path());
  EXPECT_EQ(listed.status, 0) << listed.err;
  EXPECT_THAT(listed.out, HasSubstr("whoami"));
  EXPECT_EQ(server.Requests().back().authorization,
            "Bearer " + Tokens()[0]["access_token"].get<std::string>());

  // An incognito run uses no stored token.
  std::vector<std::string> incognito = Environment();
  incognito.push_back("BRAVEBOT_INCOGNITO=1");
  EXPECT_THAT(RunCommand(list, incognito, temporary_.path()).err,
              HasSubstr("it asks for a sign-in"));
}

TEST_F(LoginTest, ATokenForAnotherAudienceIsRefusedByTheServiceAndSaidSo) {
  AuthorizationServer server({.audience_instead = "https://other.example.com/mcp"});
  ASSERT_EQ(Mcp({"add", "svc", "--http", server.ServiceUrl()}).status, 0);
  ASSERT_EQ(Run("login", "svc").status, 0);
  CommandOutput run = RunCommand({OurProgram("mcp-run"), "svc"}, Environment(), temporary_.path());
  EXPECT_EQ(run.status, 1);
  EXPECT_THAT(run.err, HasSubstr("it asks for a sign-in, which `bravebot-mcp login svc` makes"));
}

TEST_F(LoginTest, ATokenAboutToExpireIsRefreshedAndTheNewOneKept) {
  // Under the minute within which a token is refreshed before it is sent.
  AuthorizationServer server({.token_lifetime = std::chrono::seconds(30)});
  ASSERT_EQ(Mcp({"add", "svc", "--http", server.ServiceUrl()}).status, 0);
  ASSERT_EQ(Run("login", "svc").status, 0);
  const std::string first = Tokens()[0]["access_token"];
  const std::string first_refresh = Tokens()[0]["refresh_token"];
  server.ExpireAccessTokens();
  CommandOutput listed =
      RunCommand({OurProgram("mcp-run"), "svc"}, Environment(), temporary_.path());
  EXPECT_EQ(listed.status, 0) << listed.err;
  EXPECT_EQ(server.TokensIssued("refresh_token"), 1);
  ASSERT_EQ(Tokens().size(), 1u);
  EXPECT_NE(Tokens()[0]["access_token"], first);
  // The server rotates refresh tokens: the new one is kept, or the next
  // refresh would fail.
  EXPECT_NE(Tokens()[0]["refresh_token"], first_refresh);
  for (const RecordedRequest& request : server.Requests()) {
    if (request.target == "/mcp") {
      EXPECT_NE(request.authorization, "Bearer " + first);
    }
  }
}

// An incognito run uses no kept token: one that expired is not refreshed
// either, and mcp-tokens is left as it was, byte for byte.
TEST_F(LoginTest, AnIncognitoRunRefreshesNothingAndLeavesTheTokensAsTheyWere) {
  AuthorizationServer server;
  ASSERT_EQ(Mcp({"add", "svc", "--http", server.ServiceUrl()}).status, 0);
  ASSERT_EQ(Run("login", "svc").status, 0);
  Json file = Json::parse(Slurp(Profile() + "/mcp-tokens"));
  file["tokens"][0]["expires_at"] = 1000000000;  // long expired
  std::ofstream(Profile() + "/mcp-tokens") << file.dump();
  const std::string before = Slurp(Profile() + "/mcp-tokens");
  std::vector<std::string> incognito = Environment();
  incognito.push_back("BRAVEBOT_INCOGNITO=1");
  CommandOutput run = RunCommand({OurProgram("mcp-run"), "svc"}, incognito, temporary_.path());
  EXPECT_EQ(run.status, 1);
  EXPECT_THAT(run.err, HasSubstr("it asks for a sign-in"));
  EXPECT_EQ(server.TokensIssued("refresh_token"), 0);
  EXPECT_EQ(Slurp(Profile() + "/mcp-tokens"), before);
}

TEST_F(LoginTest, AClientRegisteredWithASecretRefreshesWithIt) {
  AuthorizationServer server({.registration_gives_secret = true});
  ASSERT_EQ(Mcp({"add", "svc", "--http", server.ServiceUrl()}).status, 0);
  CommandOutput login = Run("login", "svc");
  ASSERT_EQ(login.status, 0) << login.err;
  Json file = Json::parse(Slurp(Profile() + "/mcp-tokens"));
  const std::string secret = file["tokens"][0]["client_secret"];
  EXPECT_EQ(file["tokens"][0]["client_authentication"], "client_secret_basic");
  file["tokens"][0]["expires_at"] = 1000000000;  // long expired, as far as we know
  std::ofstream(Profile() + "/mcp-tokens") << file.dump();

  CommandOutput run = RunCommand({OurProgram("mcp-run"), "svc"}, Environment(), temporary_.path());
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(server.TokensIssued("refresh_token"), 1);
  EXPECT_EQ(server.SecretsSentBy("client_secret_basic"), 2);  // the code's, and the refresh's
  for (const std::string& shown :
       {login.out, login.err, run.err, Mcp({"get", "svc", "--json"}).out, Mcp({"list"}).out}) {
    EXPECT_THAT(shown, Not(HasSubstr(secret)));
  }
}

TEST_F(LoginTest, TwoStartsThatRefreshAtOnceBothReachTheService) {
  // The server rotates refresh tokens: a second start sending the one the
  // first sent would be refused.
  AuthorizationServer server({.refresh_answer_delay = std::chrono::milliseconds(1500)});
  ASSERT_EQ(Mcp({"add", "svc", "--http", server.ServiceUrl()}).status, 0);
  ASSERT_EQ(Run("login", "svc").status, 0);
  ExpireKeptToken();
  ExpectTwoStartsShareOneRefresh(server);
}

// Review 26, F8: a server that does not rotate refresh tokens leaves the
// one kept as it was, so another start's renewal is told by its access
// token.
TEST_F(LoginTest, TwoStartsAtAServerThatKeepsTheRefreshTokenShareOneRefresh) {
  AuthorizationServer server(
      {.refresh_answer_delay = std::chrono::milliseconds(1500), .rotate_refresh_tokens = false});
  ASSERT_EQ(Mcp({"add", "svc", "--http", server.ServiceUrl()}).status, 0);
  ASSERT_EQ(Run("login", "svc").status, 0);
  const std::string refresh = Tokens()[0]["refresh_token"];
  ExpireKeptToken();
  ExpectTwoStartsShareOneRefresh(server);
  EXPECT_EQ(Tokens()[0]["refresh_token"], refresh);
}

TEST_F(LoginTest, TheTokenIsNeverSentWhereTheServiceRedirects) {
  AuthorizationServer elsewhere;
  AuthorizationServer server({.service_redirect = elsewhere.ServiceUrl()});
  ASSERT_EQ(Mcp({"add", "svc", "--http", server.ServiceUrl()}).status, 0);
  // A token kept for it, as login keeps one: for this declaration and origin.
  std::ofstream(Profile() + "/mcp-tokens") << Json{
      {"version", 1},
      {"tokens",
       Json::array({Json{{"alias", "svc"},
                         {"digest", Digest("svc")},
                         {"origin", server.Origin()},
                         {"access_token", "planted-token"},
                         {"token_endpoint", server.Issuer() + "/token"},
                         {"client_id", "c"}}})}}.dump();
  ::chmod((Profile() + "/mcp-tokens").c_str(), 0600);
  CommandOutput run = RunCommand({OurProgram("mcp-run"), "svc"}, Environment(), temporary_.path());
  EXPECT_EQ(run.status, 1);
  ASSERT_FALSE(server.Requests().empty());
  EXPECT_EQ(server.Requests().front().authorization, "Bearer planted-token");
  for (const RecordedRequest& request : elsewhere.Requests()) {
    EXPECT_EQ(request.authorization, "") << request.target;
  }
}

// Review 26, F4: a server that rotates refresh tokens and, as RFC 9700
// section 4.14.2 asks, takes one used twice as stolen and revokes the
// grant. Two starts that refresh at once must send it once (the entry's
// lock in mcp-tokens.locks), or the next refresh, once the token they
// shared expires, finds the grant revoked.
TEST_F(LoginTest, TwoStartsThatRefreshAtOnceLeaveTheGrantGoodAtAServerThatRevokesOnReuse) {
  AuthorizationServer server(
      {.refresh_answer_delay = std::chrono::milliseconds(1500), .revoke_on_reuse = true});
  ASSERT_EQ(Mcp({"add", "svc", "--http", server.ServiceUrl()}).status, 0);
  ASSERT_EQ(Run("login", "svc").status, 0);
  ExpireKeptToken();
  server.ExpireAccessTokens();
  ExpectTwoStartsShareOneRefresh(server);
  // An hour later, as far as the token knows: refreshed again.
  ExpireKeptToken();
  server.ExpireAccessTokens();
  CommandOutput later =
      RunCommand({OurProgram("mcp-run"), "svc"}, Environment(), temporary_.path());
  EXPECT_EQ(later.status, 0) << later.err;
  EXPECT_THAT(later.out, HasSubstr("whoami"));
}

// mcp.json changed by hand leaves the entry of the old digest: logout of
// the alias forgets it too, or it would come back with the file changed
// back.
TEST_F(LoginTest, LogoutForgetsEveryTokenOfTheAliasWhateverItsDigest) {
  AuthorizationServer server;
  ASSERT_EQ(Mcp({"add", "svc", "--http", server.ServiceUrl()}).status, 0);
  ASSERT_EQ(Run("login", "svc").status, 0);
  ASSERT_EQ(Tokens().size(), 1u);
  std::string declarations = Slurp(DeclarationFile());
  const size_t at = declarations.find(server.ServiceUrl());
  ASSERT_NE(at, std::string::npos);
  declarations.replace(at, server.ServiceUrl().size(), server.Origin() + "/other");
  std::ofstream(DeclarationFile()) << declarations;
  CommandOutput logout = Run("logout", "svc");
  EXPECT_EQ(logout.status, 0) << logout.err;
  for (const Json& token : Tokens()) EXPECT_NE(token["alias"], "svc") << logout.out;
}

}  // namespace
}  // namespace bravebot::testing
