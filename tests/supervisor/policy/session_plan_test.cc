#include "supervisor/policy/session_plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "confine/digest.h"
#include "tests/fake_filesystem.h"
#include "tests/temporary_directory.h"

namespace bravebot {
namespace {

using testing::FakeFileSystem;
using ::testing::HasSubstr;
using testing::TemporaryDirectory;

Declaration WeatherDeclaration(const std::string& version = "latest") {
  Declaration weather;
  weather.alias = "weather";
  weather.program = "npx";
  weather.arguments = {"-y", "@dangahagan/weather-mcp@" + version};
  weather.passed_variables = {"PATH"};
  return weather;
}

class SessionPlanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(Checkout() + "/.bravebot");
    std::ofstream(Checkout() + "/.bravebot/settings.json")
        << R"({"mcp": {"request": ["weather", "ghost"]}})";
    auto profile = ProfileDirectory::Open(temporary_.Join("profile"), Create::kYes);
    ASSERT_TRUE(profile.ok());
    profile_.emplace(std::move(*profile));
    declarations_.declarations = {WeatherDeclaration()};
    fs_.AddExecutable("/opt/homebrew/bin/npx");
    environment_["PATH"] = "/opt/homebrew/bin:/usr/bin";
  }
  std::string Checkout() const { return temporary_.Join("app"); }

  SessionPlan Plan(Asking asking, const ManagedPolicy* policy = nullptr,
                   const std::string& directory = "", bool incognito = false) {
    SessionInputs inputs{directory.empty() ? Checkout() : directory,
                         asking,
                         incognito,
                         &*profile_,
                         &declarations_,
                         &approvals_,
                         policy,
                         [this](const char* name) -> const char* {
                           auto found = environment_.find(name);
                           return found == environment_.end() ? nullptr : found->second.c_str();
                         },
                         &fs_};
    Result<SessionPlan> plan = PlanSession(inputs);
    EXPECT_TRUE(plan.ok()) << plan.error().message();
    return plan.ok() ? *plan : SessionPlan{};
  }
  const PlannedServer& PlannedWeather(const SessionPlan& plan) { return plan.requested.at(1); }

  TemporaryDirectory temporary_;
  std::optional<ProfileDirectory> profile_;
  DeclarationFile declarations_;
  ApprovalFile approvals_;
  FakeFileSystem fs_;
  std::map<std::string, std::string> environment_;
};

TEST_F(SessionPlanTest, AtATerminalAnUnapprovedServerIsAskedAboutAsTheSpecDrawsIt) {
  SessionPlan plan = Plan(Asking::kSomebody);
  ASSERT_EQ(plan.requested.size(), 2u);
  const PlannedServer& weather = PlannedWeather(plan);
  EXPECT_EQ(weather.decision, ServerDecision::kAsk);
  EXPECT_EQ(weather.question,
            "  weather   stdio   npx -y @dangahagan/weather-mcp@latest\n"
            "            requested by .bravebot/settings.json\n"
            "            runs /opt/homebrew/bin/npx\n"
            "            variables: PATH\n"
            "            digest: " +
                ComputeDigest(WeatherDeclaration()).Short() +
                "\n"
                "            npx fetches what it runs when it starts\n"
                "            @dangahagan/weather-mcp@latest names no exact version, so it runs "
                "whatever is published under it\n"
                "\n"
                "  Use this MCP server?\n"
                "  1. Yes\n"
                "  2. Yes, and use all future MCP servers in this project\n"
                "  3. No, continue without this server\n"
                "  [1/2/3]");
}

TEST_F(SessionPlanTest, ADirectoryThroughALinkIsResolvedOnceAndReadWhereItLed) {
  std::filesystem::create_directory_symlink(Checkout(), temporary_.Join("link"));
  const SessionPlan plan = Plan(Asking::kSomebody, nullptr, temporary_.Join("link"));
  EXPECT_EQ(plan.directory, temporary_.Join("link"));
  EXPECT_EQ(plan.checkout_directory, std::filesystem::canonical(Checkout()).string());
  ASSERT_EQ(plan.requested.size(), 2u);
  EXPECT_THAT(PlannedWeather(plan).requested_by,
              ::testing::ElementsAre(plan.checkout_directory + "/.bravebot/settings.json"));
}

TEST_F(SessionPlanTest, ARequestedServerNobodyDeclaredIsNotStarted) {
  const SessionPlan plan = Plan(Asking::kSomebody);
  const PlannedServer& ghost = plan.requested.at(0);
  EXPECT_EQ(ghost.alias, "ghost");
  EXPECT_EQ(ghost.decision, ServerDecision::kNotStarted);
  EXPECT_EQ(ghost.reason,
            ".bravebot/settings.json requests the MCP server ghost, which is not declared, so "
            "nothing was installed or run for it: bravebot-mcp add declares one");
}

TEST_F(SessionPlanTest, WhereNobodyCanBeAskedItIsNotStarted) {
  EXPECT_EQ(PlannedWeather(Plan(Asking::kOneShot)).reason,
            "weather was not started: a one-shot run asks nobody, so run bravebot-mcp approve "
            "weather at a terminal");
  EXPECT_THAT(PlannedWeather(Plan(Asking::kNobody)).reason,
              HasSubstr("a session with no terminal asks nobody"));
  EXPECT_EQ(PlannedWeather(Plan(Asking::kSomebody, nullptr, "", /*incognito=*/true)).decision,
            ServerDecision::kAsk);
  EXPECT_EQ(PlannedWeather(Plan(Asking::kSkipPermissions)).decision, ServerDecision::kStartUnasked);
}

TEST_F(SessionPlanTest, AnApprovedServerStartsUnaskedInEveryMode) {
  approvals_.Approve(WeatherDeclaration());
  for (Asking asking : {Asking::kSomebody, Asking::kNobody, Asking::kOneShot}) {
    EXPECT_EQ(PlannedWeather(Plan(asking)).decision, ServerDecision::kStartUnasked);
  }
  EXPECT_EQ(PlannedWeather(Plan(Asking::kSomebody, nullptr, "", /*incognito=*/true)).decision,
            ServerDecision::kStartUnasked);
}

TEST_F(SessionPlanTest, AnswerTwoCoversANewServerButNotAChangedOne) {
  auto lock = profile_->Lock();
  ASSERT_TRUE(lock.ok());
  ASSERT_TRUE(StandingAnswers(*profile_).RecordServersAnswered(Checkout(), *lock).ok());
  EXPECT_EQ(PlannedWeather(Plan(Asking::kOneShot)).decision, ServerDecision::kStartUnasked);
  // Approved once as @latest, now declared @1.4.0: answer 2 does not reach it.
  approvals_.Approve(WeatherDeclaration());
  declarations_.declarations = {WeatherDeclaration("1.4.0")};
  approvals_.KeepOnlyThoseOf(declarations_.declarations);
  const SessionPlan plan = Plan(Asking::kSomebody);
  const PlannedServer& weather = PlannedWeather(plan);
  EXPECT_EQ(weather.decision, ServerDecision::kAsk);
  EXPECT_THAT(weather.question, HasSubstr("changed: argv"));
}

TEST_F(SessionPlanTest, TheAdministratorRefusesInEveryMode) {
  auto policy = ParseManagedPolicy(R"({"mcp": {"allow": []}})", "/etc/bravebot/managed.json");
  ASSERT_TRUE(policy.ok());
  approvals_.Approve(WeatherDeclaration());
  for (Asking mode : {Asking::kSomebody, Asking::kSkipPermissions}) {
    const SessionPlan plan = Plan(mode, &*policy);
    const PlannedServer& weather = PlannedWeather(plan);
    EXPECT_EQ(weather.decision, ServerDecision::kNotStarted);
    EXPECT_TRUE(weather.refused_by_administrator);
    EXPECT_EQ(weather.reason,
              "weather was not started, whatever was declared or approved: "
              "/etc/bravebot/managed.json, which this machine's administrator manages, allows "
              "only the servers its mcp.allow names, and not this one");
  }
}

TEST_F(SessionPlanTest, ADeclaredServerNoFileAsksForIsNotInThePlan) {
  std::ofstream(Checkout() + "/.bravebot/settings.json") << R"({"mcp": {"request": []}})";
  EXPECT_TRUE(Plan(Asking::kSomebody).requested.empty());
}

}  // namespace
}  // namespace bravebot
