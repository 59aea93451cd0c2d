// Signing in where a person is at the terminal (integration/terminal.h):
// mcp-run offering to sign in to a service that asks for it, and login
// asking before a declared client's secret goes elsewhere than the service.
// The browser is a script named by $BROWSER that follows the authorization
// url as a person's click would.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "integration/profile_fixture.h"
#include "integration/terminal.h"
#include "tests/supervisor/testing/authorization_server.h"

namespace bravebot::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using Json = nlohmann::json;

class SignInAtTerminalTest : public ProfileTest {
 protected:
  void SetUp() override {
    std::ofstream(Browser()) << "#!/bin/sh\nexec curl -sS -L --max-redirs 3 -o /dev/null \"$1\"\n";
    ::chmod(Browser().c_str(), 0755);
  }
  std::string Browser() const { return temporary_.Join("browser"); }

  CommandOutput AtTerminal(const std::vector<std::string>& argv,
                           const std::vector<TerminalStep>& steps) const {
    std::vector<std::string> environment = Environment();
    environment.push_back("BROWSER=" + Browser());
    return RunAtTerminalStepByStep(argv, environment, temporary_.path(), steps);
  }

  Json Tokens() const {
    Json tokens = Json::parse(Slurp(Profile() + "/mcp-tokens"), nullptr, false);
    return tokens.is_object() ? tokens["tokens"] : Json::array();
  }
};

TEST_F(SignInAtTerminalTest, McpRunOffersToSignInAndListsOnceSignedIn) {
  AuthorizationServer server;
  ASSERT_EQ(Mcp({"add", "svc", "--http", server.ServiceUrl()}).status, 0);
  CommandOutput run =
      AtTerminal({OurProgram("mcp-run"), "svc"}, {{"Sign in to svc now? [y/N]", "y\n"}});
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_THAT(run.out, HasSubstr("svc answered POST with HTTP 401: it asks for a sign-in, which "
                                 "`bravebot-mcp login svc` makes"));
  EXPECT_THAT(run.out, HasSubstr("Signed in to svc until "));
  EXPECT_THAT(run.out, HasSubstr("whoami"));
  ASSERT_EQ(Tokens().size(), 1u);
  EXPECT_EQ(server.TokensIssued("authorization_code"), 1);
}

// Review 26, second round: mcp-run's standard output is the server's
// listing, which a person may pipe; the sign-in's address goes where the
// person is, with the question.
TEST_F(SignInAtTerminalTest, McpRunSaysWhereToSignInOnStandardErrorNotInTheListing) {
  AuthorizationServer server;
  ASSERT_EQ(Mcp({"add", "svc", "--http", server.ServiceUrl()}).status, 0);
  const std::string listing = temporary_.Join("listing");
  CommandOutput run =
      AtTerminal({"/bin/sh", "-c", "exec \"$0\" svc > \"$1\"", OurProgram("mcp-run"), listing},
                 {{"Sign in to svc now? [y/N]", "y\n"}});
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_THAT(run.out, HasSubstr("To sign in to svc, open this address in a browser"));
  EXPECT_THAT(run.out, HasSubstr("Signed in to svc until "));
  EXPECT_THAT(run.out, Not(HasSubstr("whoami")));
  const std::string piped = Slurp(listing);
  EXPECT_THAT(piped, HasSubstr("whoami"));
  EXPECT_THAT(piped, Not(HasSubstr("sign in"))) << piped;
  EXPECT_THAT(piped, Not(HasSubstr("Signed in"))) << piped;
}

TEST_F(SignInAtTerminalTest, McpRunSignsInToNothingOnANo) {
  AuthorizationServer server;
  ASSERT_EQ(Mcp({"add", "svc", "--http", server.ServiceUrl()}).status, 0);
  CommandOutput run =
      AtTerminal({OurProgram("mcp-run"), "svc"}, {{"Sign in to svc now? [y/N]", "n\n"}});
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_THAT(run.out, Not(HasSubstr("whoami")));
  EXPECT_TRUE(Tokens().empty());
  EXPECT_EQ(server.TokensIssued("authorization_code"), 0);
  // Said once, before the question, not again after it.
  const std::string said = "it asks for a sign-in";
  EXPECT_EQ(run.out.find(said), run.out.rfind(said)) << run.out;
}

TEST_F(SignInAtTerminalTest, McpRunOffersNothingInAnIncognitoRun) {
  AuthorizationServer server;
  ASSERT_EQ(Mcp({"add", "svc", "--http", server.ServiceUrl()}).status, 0);
  std::vector<std::string> environment = Environment();
  environment.push_back("BRAVEBOT_INCOGNITO=1");
  CommandOutput run =
      RunAtTerminalStepByStep({OurProgram("mcp-run"), "svc"}, environment, temporary_.path(), {});
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_THAT(run.out, HasSubstr("it asks for a sign-in"));
  EXPECT_THAT(run.out, Not(HasSubstr("Sign in to svc now?")));
}

// The service names an authorization server elsewhere than itself, and the
// person declared a client with its secret: login asks before it goes
// there; a yes signs in, and without a terminal nothing is sent.
TEST_F(SignInAtTerminalTest, LoginAsksBeforeADeclaredSecretGoesElsewhere) {
  AuthorizationServer elsewhere(
      {.client_id = "desk", .client_secret = "s3cret", .any_resource = true});
  AuthorizationServer service({.authorization_server = elsewhere.Issuer()});
  const std::string secret = temporary_.Join("secret");
  std::ofstream(secret) << "s3cret\n";
  ASSERT_EQ(Mcp({"add", "svc", "--http", service.ServiceUrl(), "--client-id", "desk",
                 "--client-secret-file", secret})
                .status,
            0);

  std::vector<std::string> environment = Environment();
  environment.push_back("BROWSER=" + Browser());
  CommandOutput unasked =
      RunCommand({OurProgram("bravebot-mcp"), "login", "svc"}, environment, temporary_.path());
  EXPECT_EQ(unasked.status, 1);
  EXPECT_THAT(unasked.err, HasSubstr("the secret of client desk would go to " + elsewhere.Origin() +
                                     ", an authorization server the service "
                                     "names elsewhere than itself: run login "
                                     "at a terminal"));
  EXPECT_EQ(elsewhere.SecretsSentBy("client_secret_basic"), 0);

  CommandOutput asked =
      AtTerminal({OurProgram("bravebot-mcp"), "login", "svc"},
                 {{"Is that the provider you made client desk at? [y/N]", "y\n"}});
  EXPECT_EQ(asked.status, 0) << asked.out;
  EXPECT_THAT(asked.out, HasSubstr("svc names " + elsewhere.Issuer() + " as where it signs in"));
  EXPECT_THAT(asked.out, HasSubstr("Signed in to svc until "));
  EXPECT_EQ(elsewhere.SecretsSentBy("client_secret_basic"), 1);
  ASSERT_EQ(Tokens().size(), 1u);
  EXPECT_EQ(Tokens()[0]["origin"], service.Origin());
}

}  // namespace
}  // namespace bravebot::testing
