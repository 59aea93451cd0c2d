#include "supervisor/policy/redirect_decision.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace bravebot {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

Redirect From(const std::string& target, int status = 307) {
  Redirect redirect;
  redirect.alias = "docs";
  redirect.declared_url = "https://docs.example.com/mcp";
  redirect.request_url = "https://docs.example.com/mcp";
  redirect.method = "POST";
  redirect.status = status;
  redirect.target = target;
  return redirect;
}

const ManagedPolicy kNoPolicy;

TEST(RedirectDecisionTest, TheSameSchemeHostAndPortIsFollowedKeepingTheMessage) {
  for (int status : {301, 302, 307, 308}) {
    RedirectDecision next =
        DecideRedirect(From("https://docs.example.com/mcp/", status), kNoPolicy);
    EXPECT_EQ(next.action, RedirectAction::kFollow) << status;
    EXPECT_EQ(next.url, "https://docs.example.com/mcp/");
    EXPECT_EQ(next.method, "POST");
  }
  // The port a scheme implies is the port written out, and a host's case
  // does not make another host.
  EXPECT_EQ(DecideRedirect(From("https://DOCS.example.com:443/v2"), kNoPolicy).action,
            RedirectAction::kFollow);
}

TEST(RedirectDecisionTest, A303FollowsOnlyAGet) {
  RedirectDecision post = DecideRedirect(From("https://docs.example.com/other", 303), kNoPolicy);
  EXPECT_EQ(post.action, RedirectAction::kRefuse);
  EXPECT_EQ(post.reason,
            "docs was not reached: it answered POST with 303 See Other, which would make the "
            "message a GET, and an MCP message is never one");
  Redirect get = From("https://docs.example.com/other", 303);
  get.method = "GET";
  EXPECT_EQ(DecideRedirect(get, kNoPolicy).action, RedirectAction::kFollow);
}

TEST(RedirectDecisionTest, AChainOfSameOriginRedirectsIsStopped) {
  Redirect redirect = From("https://docs.example.com/mcp/");
  redirect.followed = kMaxSameOriginRedirects - 1;
  EXPECT_EQ(DecideRedirect(redirect, kNoPolicy).action, RedirectAction::kFollow);
  redirect.followed = kMaxSameOriginRedirects;
  RedirectDecision stopped = DecideRedirect(redirect, kNoPolicy);
  EXPECT_EQ(stopped.action, RedirectAction::kRefuse);
  EXPECT_EQ(stopped.reason,
            "docs was not reached: its replies redirected 11 times within docs.example.com, more "
            "than bravebot-mcp follows, so the request was given up");
}

TEST(RedirectDecisionTest, AnotherHostIsAskedAboutInTheSpecsWords) {
  RedirectDecision ask = DecideRedirect(From("https://mcp.example.net/mcp", 301), kNoPolicy);
  EXPECT_EQ(ask.action, RedirectAction::kAsk);
  EXPECT_EQ(ask.url, "https://mcp.example.net/mcp");
  EXPECT_EQ(ask.question,
            "  docs is declared at https://docs.example.com/mcp\n"
            "  and its reply points to https://mcp.example.net/mcp\n"
            "  reaching mcp.example.net\n"
            "  Nothing was sent there. A yes declares the server at that address and sends it "
            "what was being\n"
            "  sent, and every later request to the server goes there too, in this session and "
            "the next. Say\n"
            "  no unless you know the server moved.\n"
            "\n"
            "  declare this server where its reply points? [y/N]");
  // Another port or another scheme is another place too.
  RedirectDecision port = DecideRedirect(From("https://docs.example.com:8443/mcp"), kNoPolicy);
  EXPECT_EQ(port.action, RedirectAction::kAsk);
  EXPECT_THAT(port.question, HasSubstr("\n  reaching docs.example.com:8443\n"));
  EXPECT_EQ(DecideRedirect(From("http://docs.example.com/mcp"), kNoPolicy).action,
            RedirectAction::kAsk);
  EXPECT_THAT(DecideRedirect(From("https://[::1]:9/mcp"), kNoPolicy).question,
              HasSubstr("\n  reaching [::1]:9\n"));
}

TEST(RedirectDecisionTest, TheQuestionSaysDeclaredHeadersAreLeftBehind) {
  Redirect redirect = From("https://mcp.example.net/mcp", 301);
  redirect.declared_headers = true;
  EXPECT_THAT(DecideRedirect(redirect, kNoPolicy).question,
              HasSubstr("  no unless you know the server moved.\n"
                        "  Its headers (add --header) are for where it is declared: a yes "
                        "declares it there without\n  them, and they are never sent there.\n\n"
                        "  declare this server where its reply points? [y/N]"));
}

TEST(RedirectDecisionTest, TheQuestionSaysASignInIsLeftBehind) {
  Redirect redirect = From("https://mcp.example.net/mcp", 308);
  redirect.signed_in = true;
  const std::string question = DecideRedirect(redirect, kNoPolicy).question;
  EXPECT_THAT(question, HasSubstr("  no unless you know the server moved.\n"
                                  "  Its sign-in (bravebot-mcp login) is for where it is declared: "
                                  "a yes sends its token nowhere\n  else, and signing in there is "
                                  "anew.\n\n"
                                  "  declare this server where its reply points? [y/N]"));
  // A sign-in is no declared header.
  EXPECT_THAT(question, Not(HasSubstr("add --header")));
}

TEST(RedirectDecisionTest, WhereNobodyCanBeAskedItIsRefusedSayingSo) {
  const std::pair<Asking, std::string> askers[] = {
      {Asking::kOneShot,
       "a one-shot run asks nobody whether a server moved, so nothing was sent there"},
      {Asking::kNobody,
       "this session has nobody at a terminal to ask whether the server moved, so nothing was "
       "sent there"},
      {Asking::kSkipPermissions,
       "--dangerously-skip-permissions refuses every redirect to another place without asking, "
       "so nothing was sent there"},
  };
  for (const auto& [asking, why] : askers) {
    Redirect redirect = From("https://mcp.example.net/mcp");
    redirect.asking = asking;
    RedirectDecision refused = DecideRedirect(redirect, kNoPolicy);
    EXPECT_EQ(refused.action, RedirectAction::kRefuse);
    EXPECT_EQ(
        refused.reason,
        "docs was not reached at https://mcp.example.net/mcp, where its reply points: " + why);
  }
}

TEST(RedirectDecisionTest, ATargetNoDeclarationCanHoldIsRefusedWithoutShowingIt) {
  RedirectDecision password =
      DecideRedirect(From("https://me:s3cret@mcp.example.net/mcp"), kNoPolicy);
  EXPECT_EQ(password.action, RedirectAction::kRefuse);
  EXPECT_EQ(password.reason,
            "docs was not reached where its reply points: that url holds a user or a password, "
            "which a declaration cannot hold, so nothing was sent there");
  RedirectDecision scheme = DecideRedirect(From("ftp://s3cret.example.net/mcp"), kNoPolicy);
  EXPECT_EQ(scheme.action, RedirectAction::kRefuse);
  EXPECT_THAT(scheme.reason, HasSubstr("is not an http or https url"));
  EXPECT_THAT(scheme.reason, Not(HasSubstr("s3cret")));
  // Even to a person at the terminal: nothing is asked.
  EXPECT_EQ(DecideRedirect(From("https://mcp.example.net/\x1b[2J"), kNoPolicy).action,
            RedirectAction::kRefuse);
}

// An attacker's probes: a service that points its client at a file, at
// code, or at its own host in the clear, to have a request, its token or a
// declared header read where it should not be. Nothing is followed unasked,
// and nothing but http and https is ever put to the person.
TEST(RedirectDecisionTest, NoOtherSchemeAndNoDowngradeIsFollowed) {
  for (const char* target :
       {"file:///etc/passwd", "file://docs.example.com/mcp", "data:text/plain,hi",
        "javascript:alert(1)", "gopher://docs.example.com/mcp", "unix:///run/docker.sock"}) {
    for (Asking asking : {Asking::kSomebody, Asking::kSkipPermissions}) {
      Redirect redirect = From(target);
      redirect.asking = asking;
      EXPECT_EQ(DecideRedirect(redirect, kNoPolicy).action, RedirectAction::kRefuse) << target;
    }
  }
  // The same host in the clear, or on another port, is another place.
  for (const char* target : {"http://docs.example.com/mcp", "https://docs.example.com:8443/mcp"}) {
    Redirect redirect = From(target);
    redirect.asking = Asking::kSkipPermissions;
    EXPECT_EQ(DecideRedirect(redirect, kNoPolicy).action, RedirectAction::kRefuse) << target;
    redirect.asking = Asking::kSomebody;
    EXPECT_EQ(DecideRedirect(redirect, kNoPolicy).action, RedirectAction::kAsk) << target;
  }
}

TEST(RedirectDecisionTest, AHostTheAdministratorRefusesIsRefusedWithoutAsking) {
  Result<ManagedPolicy> policy = ParseManagedPolicy(
      R"({"mcp": {"deny": [{"host": "*.example.net"}]}})", "/etc/bravebot/managed.json");
  ASSERT_TRUE(policy) << policy.error().message();
  RedirectDecision refused = DecideRedirect(From("https://mcp.example.net/mcp"), *policy);
  EXPECT_EQ(refused.action, RedirectAction::kRefuse);
  EXPECT_EQ(refused.reason,
            "docs was not reached at https://mcp.example.net/mcp, where its reply points: "
            "/etc/bravebot/managed.json, which this machine's administrator manages, denies this "
            "one in its mcp.deny");
  Result<ManagedPolicy> allow_only = ParseManagedPolicy(
      R"({"mcp": {"allow": [{"host": "docs.example.com"}]}})", "/etc/bravebot/managed.json");
  ASSERT_TRUE(allow_only);
  EXPECT_EQ(DecideRedirect(From("https://mcp.example.net/mcp"), *allow_only).action,
            RedirectAction::kRefuse);
  // A same-origin move stays where the file already admitted it.
  EXPECT_EQ(DecideRedirect(From("https://docs.example.com/mcp/"), *allow_only).action,
            RedirectAction::kFollow);
}

}  // namespace
}  // namespace bravebot
