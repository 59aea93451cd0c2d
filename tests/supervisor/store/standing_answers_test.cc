#include "supervisor/store/standing_answers.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include "tests/temporary_directory.h"

namespace bravebot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using testing::TemporaryDirectory;

constexpr char kApp[] = "/Users/you/work/app";

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void Spit(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

// --- Pure.

TEST(StandingAnswersFormatTest, ProjectsRoundTrip) {
  ProjectsFile file;
  EXPECT_TRUE(file.Add(kApp));
  EXPECT_TRUE(file.Add("/home/you/my project"));
  EXPECT_FALSE(file.Add(kApp));
  const std::string text = SerializeProjectsFile(file);
  EXPECT_EQ(text, "# bravebot-mcp projects, format 1\n/Users/you/work/app\n/home/you/my project\n");
  auto parsed = ParseProjectsFile(text, "/p/mcp-projects");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_THAT(parsed->projects, ElementsAre(kApp, "/home/you/my project"));
  EXPECT_TRUE(parsed->Has("/home/you/my project"));
  EXPECT_FALSE(parsed->Has("/home/you/my"));
  EXPECT_TRUE(parsed->Drop(kApp));
  EXPECT_FALSE(parsed->Drop(kApp));
}

TEST(StandingAnswersFormatTest, ToolsRoundTrip) {
  ToolsFile file;
  EXPECT_TRUE(file.Add({"weather", "get_current_conditions", kApp}));
  EXPECT_TRUE(file.Add({"weather", "get alerts", "/home/you/my project"}));
  EXPECT_FALSE(file.Add({"weather", "get_current_conditions", kApp}));
  const std::string text = SerializeToolsFile(file);
  EXPECT_EQ(text,
            "# bravebot-mcp tools, format 1\n"
            "weather\tget_current_conditions\t/Users/you/work/app\n"
            "weather\tget alerts\t/home/you/my project\n");
  auto parsed = ParseToolsFile(text, "/p/mcp-tools");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_EQ(parsed->answers, file.answers);
  EXPECT_TRUE(parsed->Has({"weather", "get alerts", "/home/you/my project"}));
  EXPECT_FALSE(parsed->Has({"weather", "get alerts", kApp}));
  EXPECT_FALSE(parsed->Has({"weather2", "get_current_conditions", kApp}));
}

// Found in a set as the file is read, never in the list so far, and still
// each once, in the order first written.
TEST(StandingAnswersFormatTest, AnEntryWrittenTwiceIsReadOnce) {
  auto projects = ParseProjectsFile("# bravebot-mcp projects, format 1\n/b\n/a\n/b\n/a\n/c\n",
                                    "/p/mcp-projects");
  ASSERT_TRUE(projects.ok()) << projects.error().message();
  EXPECT_THAT(projects->projects, ElementsAre("/b", "/a", "/c"));
  auto tools = ParseToolsFile(
      "# bravebot-mcp tools, format 1\n"
      "w\tt\t/a\nw\tt\t/a b\nw\tt\t/a\nw\tu\t/a\n",
      "/p/mcp-tools");
  ASSERT_TRUE(tools.ok()) << tools.error().message();
  EXPECT_EQ(tools->answers,
            (std::vector<ToolAnswer>{{"w", "t", "/a"}, {"w", "t", "/a b"}, {"w", "u", "/a"}}));
}

TEST(StandingAnswersFormatTest, AHeaderIsNeededAndTheFileMayEndWithoutALineBreak) {
  EXPECT_EQ(ParseProjectsFile("", "/p/mcp-projects").error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(ParseProjectsFile("/Users/you/work/app\n", "/p/mcp-projects").error().code(),
            ErrorCode::kCorrupt);
  EXPECT_EQ(ParseToolsFile("# bravebot-mcp tools, format 2\n", "/p/mcp-tools").error().code(),
            ErrorCode::kCorrupt);
  EXPECT_EQ(ParseToolsFile("# bravebot-mcp projects, format 1\n", "/p/mcp-tools").error().code(),
            ErrorCode::kCorrupt);
  auto parsed = ParseProjectsFile("# bravebot-mcp projects, format 1\n\n/a", "/p/mcp-projects");
  ASSERT_TRUE(parsed.ok());
  EXPECT_THAT(parsed->projects, ElementsAre("/a"));
}

TEST(StandingAnswersFormatTest, ABadLineIsNamedByItsNumberNeverQuoted) {
  auto projects =
      ParseProjectsFile("# bravebot-mcp projects, format 1\n/a\nsecret-relative\n", "/p/P");
  ASSERT_FALSE(projects.ok());
  EXPECT_EQ(projects.error().code(), ErrorCode::kCorrupt);
  EXPECT_THAT(projects.error().message(), HasSubstr("/p/P cannot be read at line 3"));
  EXPECT_THAT(projects.error().message(), Not(HasSubstr("secret")));

  for (const char* line :
       {"weather\tget\n", "weather get /a\n", "bad alias\tget\t/a\n", "weather\t\t/a\n",
        "weather\tget\trelative\n", "weather\tget\t/a\tsecret\n"}) {
    auto tools = ParseToolsFile(std::string("# bravebot-mcp tools, format 1\n") + line, "/p/T");
    ASSERT_FALSE(tools.ok()) << line;
    EXPECT_THAT(tools.error().message(), HasSubstr("/p/T cannot be read at line 2"));
    EXPECT_THAT(tools.error().message(), Not(HasSubstr("secret")));
  }
}

TEST(StandingAnswersFormatTest, APathHoldingATabOrALineBreakCannotBeRecorded) {
  EXPECT_TRUE(CheckProjectPath(kApp));
  EXPECT_TRUE(CheckProjectPath("/with space"));
  EXPECT_EQ(CheckProjectPath("").error().message(), "the project's path is not absolute");
  EXPECT_FALSE(CheckProjectPath("relative/app"));
  EXPECT_EQ(CheckProjectPath("/a\tb").error().message(),
            "the project's path holds a tab or a line break");
  EXPECT_FALSE(CheckProjectPath("/a\nb"));
  EXPECT_FALSE(CheckProjectPath("/a\rb"));
}

TEST(StandingAnswersFormatTest, ForgetShowsAToolNameEscaped) {
  ForgottenAnswers forgotten;
  forgotten.project = kApp;
  forgotten.tools = {{"weather", "get\x1b[2Jforecast", kApp}};
  EXPECT_THAT(DescribeForgotten(forgotten),
              ElementsAre("weather:get\\x1b[2Jforecast is asked about again before each call in "
                          "/Users/you/work/app"));
}

TEST(StandingAnswersFormatTest, ForgetSaysWhatItDroppedInThePagesWords) {
  ForgottenAnswers forgotten;
  forgotten.project = kApp;
  EXPECT_THAT(DescribeForgotten(forgotten),
              ElementsAre("nothing was recorded for /Users/you/work/app where there was nothing"));

  forgotten.tools = {{"weather", "get_forecast", kApp},
                     {"weather", "get_current_conditions", kApp}};
  forgotten.servers_answered = true;
  EXPECT_THAT(
      DescribeForgotten(forgotten),
      ElementsAre(
          "weather:get_current_conditions is asked about again before each call in "
          "/Users/you/work/app",
          "weather:get_forecast is asked about again before each call in /Users/you/work/app",
          "a server you have not approved is asked about again before it starts in "
          "/Users/you/work/app"));

  forgotten.tools.clear();
  EXPECT_THAT(DescribeForgotten(forgotten),
              ElementsAre("a server you have not approved is asked about again before it "
                          "starts in /Users/you/work/app"));
}

// --- The files.

class StandingAnswersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto profile = ProfileDirectory::Open(temporary_.Join("profile"), Create::kYes);
    ASSERT_TRUE(profile.ok()) << profile.error().message();
    profile_.emplace(std::move(*profile));
    auto lock = profile_->Lock();
    ASSERT_TRUE(lock.ok());
    lock_.emplace(std::move(*lock));
  }
  std::string Projects() const { return temporary_.Join("profile/mcp-projects"); }
  std::string Tools() const { return temporary_.Join("profile/mcp-tools"); }
  mode_t ModeOf(const std::string& path) const {
    struct stat status {};
    EXPECT_EQ(::lstat(path.c_str(), &status), 0);
    return status.st_mode & 07777;
  }

  TemporaryDirectory temporary_;
  std::optional<ProfileDirectory> profile_;
  std::optional<FileLock> lock_;
};

TEST_F(StandingAnswersTest, MissingFilesRecordNothingAndAreNotCreated) {
  StandingAnswers answers(*profile_);
  EXPECT_FALSE(*answers.ServersAnsweredIn(kApp));
  EXPECT_FALSE(*answers.ToolAnswered({"weather", "get_forecast", kApp}));
  EXPECT_THAT(*answers.ToolsAnsweredIn(kApp), IsEmpty());
  EXPECT_FALSE(*answers.DropServersAnswered(kApp, *lock_));
  EXPECT_THAT(*answers.DropToolsOf(kApp, *lock_), IsEmpty());
  auto forgotten = answers.Forget(kApp, *lock_);
  ASSERT_TRUE(forgotten.ok());
  EXPECT_TRUE(forgotten->empty());
  EXPECT_FALSE(std::filesystem::exists(Projects()));
  EXPECT_FALSE(std::filesystem::exists(Tools()));
}

TEST_F(StandingAnswersTest, RecordsAndDropsTheServerAnswer) {
  StandingAnswers answers(*profile_);
  auto recorded = answers.RecordServersAnswered(kApp, *lock_);
  ASSERT_TRUE(recorded.ok()) << recorded.error().message();
  EXPECT_TRUE(*recorded);
  EXPECT_FALSE(*answers.RecordServersAnswered(kApp, *lock_));
  EXPECT_TRUE(*answers.RecordServersAnswered("/home/you/other", *lock_));
  EXPECT_TRUE(*answers.ServersAnsweredIn(kApp));
  EXPECT_FALSE(*answers.ServersAnsweredIn("/Users/you/work/app/sub"));
  EXPECT_FALSE(*answers.ServersAnsweredIn("/Users/you/work"));
  EXPECT_EQ(Slurp(Projects()),
            "# bravebot-mcp projects, format 1\n/Users/you/work/app\n/home/you/other\n");
  EXPECT_EQ(ModeOf(Projects()), 0600u);

  EXPECT_TRUE(*answers.DropServersAnswered(kApp, *lock_));
  EXPECT_FALSE(*answers.DropServersAnswered(kApp, *lock_));
  EXPECT_FALSE(*answers.ServersAnsweredIn(kApp));
  EXPECT_TRUE(*answers.ServersAnsweredIn("/home/you/other"));
}

TEST_F(StandingAnswersTest, RecordsToolsOneEntryEach) {
  StandingAnswers answers(*profile_);
  const ToolAnswer conditions{"weather", "get_current_conditions", kApp};
  auto recorded = answers.RecordTool(conditions, *lock_);
  ASSERT_TRUE(recorded.ok()) << recorded.error().message();
  EXPECT_TRUE(*recorded);
  EXPECT_FALSE(*answers.RecordTool(conditions, *lock_));
  EXPECT_TRUE(*answers.RecordTool({"weather", "get_forecast", "/path with spaces/app"}, *lock_));
  EXPECT_TRUE(*answers.ToolAnswered(conditions));
  EXPECT_FALSE(*answers.ToolAnswered({"weather", "get_alerts", kApp}));
  EXPECT_FALSE(*answers.ToolAnswered({"weather2", "get_current_conditions", kApp}));
  EXPECT_FALSE(*answers.ToolAnswered({"weather", "get_current_conditions", "/elsewhere"}));
  EXPECT_THAT(*answers.ToolsAnsweredIn(kApp), ElementsAre(conditions));
  EXPECT_EQ(Slurp(Tools()),
            "# bravebot-mcp tools, format 1\n"
            "weather\tget_current_conditions\t/Users/you/work/app\n"
            "weather\tget_forecast\t/path with spaces/app\n");
  EXPECT_EQ(ModeOf(Tools()), 0600u);
}

TEST_F(StandingAnswersTest, RefusesWhatTheFormatCannotHold) {
  StandingAnswers answers(*profile_);
  for (const ToolAnswer& answer :
       std::vector<ToolAnswer>{{"weather", "get\tforecast", kApp},
                               {"weather", "get\nforecast", kApp},
                               {"weather", "", kApp},
                               {"not an alias", "get_forecast", kApp},
                               {"weather", "get_forecast", "/a\tb"},
                               {"weather", "get_forecast", "/a\nb"},
                               {"weather", "get_forecast", "relative"}}) {
    auto recorded = answers.RecordTool(answer, *lock_);
    ASSERT_FALSE(recorded.ok()) << answer.tool << answer.project;
    EXPECT_EQ(recorded.error().code(), ErrorCode::kRefused);
    EXPECT_THAT(recorded.error().message(), HasSubstr(Tools()));
  }
  for (const char* project : {"/a\nb", "/a\tb", "relative/app"}) {
    auto recorded = answers.RecordServersAnswered(project, *lock_);
    ASSERT_FALSE(recorded.ok());
    EXPECT_EQ(recorded.error().code(), ErrorCode::kRefused);
  }
  EXPECT_FALSE(std::filesystem::exists(Projects()));
  EXPECT_FALSE(std::filesystem::exists(Tools()));
}

TEST_F(StandingAnswersTest, ForgetDropsEveryAnswerOfOneProjectAndSaysSo) {
  StandingAnswers answers(*profile_);
  const std::string other = "/home/you/other";
  ASSERT_TRUE(answers.RecordServersAnswered(kApp, *lock_).ok());
  ASSERT_TRUE(answers.RecordServersAnswered(other, *lock_).ok());
  ASSERT_TRUE(answers.RecordTool({"weather", "get_current_conditions", kApp}, *lock_).ok());
  ASSERT_TRUE(answers.RecordTool({"weather", "get_current_conditions", other}, *lock_).ok());
  ASSERT_TRUE(answers.RecordTool({"maps", "route", kApp}, *lock_).ok());

  auto forgotten = answers.Forget(kApp, *lock_);
  ASSERT_TRUE(forgotten.ok()) << forgotten.error().message();
  EXPECT_EQ(forgotten->project, kApp);
  EXPECT_TRUE(forgotten->servers_answered);
  EXPECT_THAT(forgotten->tools, ElementsAre(ToolAnswer{"weather", "get_current_conditions", kApp},
                                            ToolAnswer{"maps", "route", kApp}));
  EXPECT_THAT(DescribeForgotten(*forgotten),
              ElementsAre("maps:route is asked about again before each call in /Users/you/work/app",
                          "weather:get_current_conditions is asked about again before each call in "
                          "/Users/you/work/app",
                          "a server you have not approved is asked about again before it starts in "
                          "/Users/you/work/app"));

  EXPECT_FALSE(*answers.ServersAnsweredIn(kApp));
  EXPECT_THAT(*answers.ToolsAnsweredIn(kApp), IsEmpty());
  EXPECT_TRUE(*answers.ServersAnsweredIn(other));
  EXPECT_TRUE(*answers.ToolAnswered({"weather", "get_current_conditions", other}));

  auto again = answers.Forget(kApp, *lock_);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->empty());
  EXPECT_THAT(DescribeForgotten(*again),
              ElementsAre("nothing was recorded for /Users/you/work/app where there was nothing"));
}

TEST_F(StandingAnswersTest, ForgetTakesAPathThatNoLongerExistsAsTyped) {
  StandingAnswers answers(*profile_);
  const std::string deleted = temporary_.Join("deleted checkout");
  ASSERT_FALSE(std::filesystem::exists(deleted));
  ASSERT_TRUE(answers.RecordTool({"weather", "get_forecast", deleted}, *lock_).ok());

  auto nothing = answers.Forget(deleted + "/", *lock_);  // other words, another path
  ASSERT_TRUE(nothing.ok());
  EXPECT_TRUE(nothing->empty());

  auto forgotten = answers.Forget(deleted, *lock_);
  ASSERT_TRUE(forgotten.ok()) << forgotten.error().message();
  EXPECT_THAT(
      DescribeForgotten(*forgotten),
      ElementsAre("weather:get_forecast is asked about again before each call in " + deleted));
  EXPECT_FALSE(std::filesystem::exists(deleted));
  EXPECT_EQ(Slurp(Tools()), "# bravebot-mcp tools, format 1\n");
}

TEST_F(StandingAnswersTest, AFileThatCannotBeReadIsNeverOverwritten) {
  StandingAnswers answers(*profile_);
  const std::string tools = "# bravebot-mcp tools, format 1\nweather get_forecast /a sk-secret\n";
  Spit(Tools(), tools);
  ASSERT_TRUE(answers.RecordServersAnswered(kApp, *lock_).ok());
  const std::string projects = Slurp(Projects());

  auto recorded = answers.RecordTool({"weather", "get_forecast", kApp}, *lock_);
  ASSERT_FALSE(recorded.ok());
  EXPECT_EQ(recorded.error().code(), ErrorCode::kCorrupt);
  EXPECT_THAT(recorded.error().message(), HasSubstr(Tools() + " cannot be read at line 2"));
  EXPECT_THAT(recorded.error().message(), Not(HasSubstr("sk-secret")));
  EXPECT_FALSE(answers.ToolAnswered({"weather", "get_forecast", kApp}).ok());
  EXPECT_FALSE(answers.DropToolsOf(kApp, *lock_).ok());

  // Forget reads both before writing either, so neither changes.
  auto forgotten = answers.Forget(kApp, *lock_);
  ASSERT_FALSE(forgotten.ok());
  EXPECT_EQ(forgotten.error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(Slurp(Tools()), tools);
  EXPECT_EQ(Slurp(Projects()), projects);
  EXPECT_TRUE(*answers.ServersAnsweredIn(kApp));

  Spit(Projects(), "no header\n");
  auto server = answers.RecordServersAnswered("/b", *lock_);
  ASSERT_FALSE(server.ok());
  EXPECT_THAT(server.error().message(), HasSubstr(Projects() + " cannot be read at line 1"));
  EXPECT_EQ(Slurp(Projects()), "no header\n");
}

TEST_F(StandingAnswersTest, ALinkedFileIsRefused) {
  StandingAnswers answers(*profile_);
  const std::string target = temporary_.Join("elsewhere");
  Spit(target, "# bravebot-mcp tools, format 1\n");
  std::filesystem::create_symlink(target, Tools());
  auto recorded = answers.RecordTool({"weather", "get_forecast", kApp}, *lock_);
  ASSERT_FALSE(recorded.ok());
  EXPECT_EQ(recorded.error().code(), ErrorCode::kRefused);
  EXPECT_EQ(Slurp(target), "# bravebot-mcp tools, format 1\n");
  EXPECT_TRUE(std::filesystem::is_symlink(Tools()));
}

TEST_F(StandingAnswersTest, ConcurrentRecordsLoseNothing) {
  lock_.reset();  // each writer takes the lock itself
  constexpr int kWriters = 50;
  std::vector<std::thread> writers;
  std::vector<std::string> failures(kWriters);
  for (int i = 0; i < kWriters; ++i) {
    writers.emplace_back([&, i] {
      auto lock = profile_->Lock();
      if (!lock) {
        failures[i] = lock.error().message();
        return;
      }
      StandingAnswers answers(*profile_);
      auto recorded = answers.RecordTool({"weather", "tool_" + std::to_string(i), kApp}, *lock);
      if (!recorded) {
        failures[i] = recorded.error().message();
      } else if (!*recorded) {
        failures[i] = "not recorded";
      }
    });
  }
  for (std::thread& writer : writers) writer.join();
  for (const std::string& failure : failures) EXPECT_EQ(failure, "");

  StandingAnswers answers(*profile_);
  auto recorded = answers.ToolsAnsweredIn(kApp);
  ASSERT_TRUE(recorded.ok());
  EXPECT_EQ(recorded->size(), static_cast<size_t>(kWriters));
  for (int i = 0; i < kWriters; ++i) {
    EXPECT_TRUE(*answers.ToolAnswered({"weather", "tool_" + std::to_string(i), kApp})) << i;
  }
  for (const auto& entry : std::filesystem::directory_iterator(temporary_.Join("profile"))) {
    EXPECT_THAT(entry.path().filename().string(), Not(HasSubstr(".new-")));
  }
}

}  // namespace
}  // namespace bravebot
