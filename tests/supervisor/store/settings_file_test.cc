#include "supervisor/store/settings_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

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

constexpr char kWeatherOnly[] = R"({
  "mcp": {
    "request": [
      "weather"
    ]
  }
}
)";

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void Spit(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

mode_t ModeOf(const std::string& path) {
  struct stat status {};
  EXPECT_EQ(::lstat(path.c_str(), &status), 0) << path;
  return status.st_mode & 07777;
}

ino_t InodeOf(const std::string& path) {
  struct stat status {};
  EXPECT_EQ(::lstat(path.c_str(), &status), 0) << path;
  return status.st_ino;
}

TEST(SettingsFilePathTest, NamesEachScopesFile) {
  EXPECT_EQ(SettingsFilePath(Scope::kLocal, "/w/app", "/h/.bravebot"),
            "/w/app/.bravebot/settings.local.json");
  EXPECT_EQ(SettingsFilePath(Scope::kProject, "/w/app", "/h/.bravebot"),
            "/w/app/.bravebot/settings.json");
  EXPECT_EQ(SettingsFilePath(Scope::kUser, "/w/app", "/h/.bravebot"), "/h/.bravebot/settings.json");
}

// --- Pure.

TEST(SettingsDocumentTest, TextThatIsNotJsonIsNamedByLineAndColumnNeverQuoted) {
  auto document = ParseSettingsDocument("{\n  \"token\": sk-live-secret\n}\n", "/w/s.json");
  ASSERT_FALSE(document.ok());
  EXPECT_EQ(document.error().code(), ErrorCode::kCorrupt);
  EXPECT_THAT(document.error().message(), HasSubstr("/w/s.json is not JSON"));
  EXPECT_THAT(document.error().message(), HasSubstr("line 2, column 12"));
  EXPECT_THAT(document.error().message(), Not(HasSubstr("sk-live")));
  EXPECT_THAT(document.error().message(), Not(HasSubstr("token")));
}

TEST(SettingsDocumentTest, AnEmptyFileOrOneThatIsNoObjectDoesNotParse) {
  EXPECT_EQ(ParseSettingsDocument("", "/w/s.json").error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(ParseSettingsDocument("[\"weather\"]", "/w/s.json").error().code(),
            ErrorCode::kCorrupt);
  auto mcp_not_object = ParseSettingsDocument(R"({"mcp": ["weather"]})", "/w/s.json");
  ASSERT_FALSE(mcp_not_object.ok());
  EXPECT_THAT(mcp_not_object.error().message(), HasSubstr("its mcp is not an object"));
}

TEST(SettingsDocumentTest, ANumberOutOfRangeIsAnErrorNotACrash) {
  auto document = ParseSettingsDocument(R"({"a": 1e999999})", "/w/s.json");
  ASSERT_FALSE(document.ok());
  EXPECT_EQ(document.error().code(), ErrorCode::kCorrupt);
}

TEST(SettingsDocumentTest, TextNestedDeeperThan128LevelsIsAnErrorNotACrash) {
  auto document = ParseSettingsDocument(R"({"a": )" + std::string(100'000, '[') + "}", "/w/s.json");
  ASSERT_FALSE(document.ok());
  EXPECT_EQ(document.error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(document.error().message(),
            "/w/s.json is nested deeper than 128 levels, which no file of bravebot-mcp needs. It "
            "was left as it is: mend it by hand");
}

TEST(SettingsDocumentTest, AMissingRequestAsksForNothing) {
  for (const char* text : {"{}", R"({"mcp": {}})", R"({"mcp": {"deny": ["x"]}})"}) {
    auto document = ParseSettingsDocument(text, "/w/s.json");
    ASSERT_TRUE(document.ok()) << text;
    auto request = McpRequestOf(*document, "/w/s.json");
    ASSERT_TRUE(request.ok()) << text;
    EXPECT_THAT(request->aliases, IsEmpty());
  }
}

TEST(SettingsDocumentTest, ARequestThatIsNotAListOfStringsIsAnError) {
  for (const char* text :
       {R"({"mcp": {"request": "weather"}})", R"({"mcp": {"request": null}})",
        R"({"mcp": {"request": {"weather": true}}})", R"({"mcp": {"request": ["weather", 3]}})"}) {
    auto document = ParseSettingsDocument(text, "/w/s.json");
    ASSERT_TRUE(document.ok()) << text;
    auto request = McpRequestOf(*document, "/w/s.json");
    ASSERT_FALSE(request.ok()) << text;
    EXPECT_EQ(request.error().code(), ErrorCode::kCorrupt);
    EXPECT_THAT(request.error().message(), HasSubstr("/w/s.json"));
    EXPECT_THAT(request.error().message(), HasSubstr("its mcp.request is not a list"));
  }
}

TEST(SettingsDocumentTest, EntriesThatAreNoAliasAreCountedNeverQuoted) {
  auto document = ParseSettingsDocument(
      R"({"mcp": {"request": ["weather", "npx -y evil --token sk-1", "maps", "weather", "", "-x"]}})",
      "/w/s.json");
  ASSERT_TRUE(document.ok());
  auto request = McpRequestOf(*document, "/w/s.json");
  ASSERT_TRUE(request.ok());
  EXPECT_THAT(request->aliases, ElementsAre("weather", "maps"));
  EXPECT_THAT(request->unusable_positions, ElementsAre(2, 5, 6));
  EXPECT_TRUE(request->Requests("maps"));
  EXPECT_FALSE(request->Requests("npx -y evil --token sk-1"));

  std::string said = DescribeUnusableEntries(*request, "/w/s.json");
  EXPECT_THAT(said, HasSubstr("/w/s.json"));
  EXPECT_THAT(said, HasSubstr("entries 2, 5 and 6"));
  EXPECT_THAT(said, Not(HasSubstr("sk-1")));
  EXPECT_THAT(said, Not(HasSubstr("npx")));
  EXPECT_EQ(DescribeUnusableEntries(McpRequest{{"weather"}, {}}, "/w/s.json"), "");
  EXPECT_THAT(DescribeUnusableEntries(McpRequest{{}, {3}}, "/w/s.json"), HasSubstr("entry 3 "));
}

// mcp.json declares 4096 servers at most: a longer list asks for what can
// never all be declared, and would make session/open's answer, which names
// each, longer than a session reads.
TEST(SettingsDocumentTest, AListLongerThanMcpJsonCanDeclareIsAnError) {
  nlohmann::json list = nlohmann::json::array();
  for (size_t i = 0; i < kMaxRequestEntries; ++i) list.push_back(std::to_string(i % 100) + "s");
  nlohmann::json document = {{"mcp", {{"request", list}}}};
  auto within = McpRequestOf(document, "/w/s.json");
  ASSERT_TRUE(within.ok()) << within.error().message();
  EXPECT_EQ(within->aliases.size(), 100u);  // each once, in the order first written
  EXPECT_EQ(within->aliases.front(), "0s");
  EXPECT_EQ(within->aliases.back(), "99s");
  document["mcp"]["request"].push_back("one-more");
  auto over = McpRequestOf(document, "/w/s.json");
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(over.error().message(),
            "/w/s.json cannot be used: its mcp.request holds 4097 entries, more than the 4096 "
            "servers mcp.json can declare. It was left as it is: mend it by hand");
}

TEST(SettingsDocumentTest, AddAndRemoveTouchOnlyTheRequest) {
  auto document = ParseSettingsDocument(R"({"z": 1, "mcp": {"deny": ["d"]}})", "/w/s.json");
  ASSERT_TRUE(document.ok());
  EXPECT_TRUE(AddToMcpRequest(*document, "weather"));
  EXPECT_FALSE(AddToMcpRequest(*document, "weather"));
  EXPECT_TRUE(AddToMcpRequest(*document, "maps"));
  EXPECT_EQ(*SerializeSettingsDocument(*document, "/w/s.json"),
            "{\n  \"mcp\": {\n    \"deny\": [\n      \"d\"\n    ],\n    \"request\": [\n      "
            "\"weather\",\n      \"maps\"\n    ]\n  },\n  \"z\": 1\n}\n");
  EXPECT_TRUE(RemoveFromMcpRequest(*document, "weather"));
  EXPECT_FALSE(RemoveFromMcpRequest(*document, "weather"));
  EXPECT_TRUE(RemoveFromMcpRequest(*document, "maps"));
  EXPECT_EQ(document->dump(), R"({"mcp":{"deny":["d"],"request":[]},"z":1})");
}

TEST(SettingsDocumentTest, NumbersComeBackAsTheyWereWritten) {
  NumbersAsWritten numbers;
  auto document = ParseSettingsDocument(
      R"({"big": 123456789012345678901234567890, "money": 1.50, "sci": 1e3, "list": [7, 2.0],)"
      R"( "small": -12})",
      "/w/s.json", &numbers);
  ASSERT_TRUE(document.ok());
  EXPECT_TRUE(AddToMcpRequest(*document, "weather"));
  const std::string text = *SerializeSettingsDocument(*document, "/w/s.json", numbers);
  EXPECT_THAT(text, HasSubstr("\"big\": 123456789012345678901234567890,"));
  EXPECT_THAT(text, HasSubstr("\"money\": 1.50,"));
  EXPECT_THAT(text, HasSubstr("\"sci\": 1e3,"));
  EXPECT_THAT(text, HasSubstr("    7,\n    2.0\n"));
  EXPECT_THAT(text, HasSubstr("\"small\": -12\n"));
  EXPECT_THAT(text, Not(HasSubstr("number")));
}

TEST(SettingsDocumentTest, AKeyGivenTwiceIsRefused) {
  auto document =
      ParseSettingsDocument(R"({"mcp": {"request": ["weather"], "request": []}})", "/w/s.json");
  ASSERT_FALSE(document.ok());
  EXPECT_EQ(document.error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(
      document.error().message(),
      "/w/s.json gives the key \"mcp.request\" twice (line 1, column 34), and only one of them "
      "can be meant. "
      "It was left as it is: mend it by hand");
  // The same key in two objects is two keys.
  EXPECT_TRUE(ParseSettingsDocument(R"({"a": {"k": 1}, "b": {"k": 2}, "c": [{"k": 1}, {"k": 2}]})",
                                    "/w/s.json")
                  .ok());
}

TEST(SettingsDocumentTest, RemoveTakesOutEveryEntryNamingTheAlias) {
  auto document =
      ParseSettingsDocument(R"({"mcp": {"request": ["weather", "maps", "weather"]}})", "/s");
  ASSERT_TRUE(document.ok());
  EXPECT_TRUE(RemoveFromMcpRequest(*document, "weather"));
  EXPECT_EQ(document->dump(), R"({"mcp":{"request":["maps"]}})");
}

// --- The files.

class SettingsFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(temporary_.path().empty());
    std::filesystem::create_directory(Checkout());
    auto profile = ProfileDirectory::Open(temporary_.Join("profile"), Create::kYes);
    ASSERT_TRUE(profile.ok()) << profile.error().message();
    profile_.emplace(std::move(*profile));
  }

  std::string Checkout() const { return temporary_.Join("app"); }
  std::string SettingsDirectory() const { return Checkout() + "/.bravebot"; }
  std::string Local() const { return SettingsDirectory() + "/settings.local.json"; }
  std::string Project() const { return SettingsDirectory() + "/settings.json"; }
  std::string User() const { return temporary_.Join("profile/settings.json"); }
  SettingsFiles Files() const { return SettingsFiles(Checkout(), &*profile_); }

  TemporaryDirectory temporary_;
  std::optional<ProfileDirectory> profile_;
};

TEST_F(SettingsFilesTest, MissingFilesAskForNothing) {
  for (Scope scope : {Scope::kLocal, Scope::kProject, Scope::kUser}) {
    auto request = Files().ReadRequest(scope);
    ASSERT_TRUE(request.ok()) << request.error().message();
    EXPECT_THAT(request->aliases, IsEmpty());
  }
  std::filesystem::create_directory(SettingsDirectory());
  auto request = Files().ReadRequest(Scope::kProject);
  ASSERT_TRUE(request.ok());
  EXPECT_THAT(request->aliases, IsEmpty());

  SettingsFiles nowhere(temporary_.Join("deleted"), nullptr);
  for (Scope scope : {Scope::kLocal, Scope::kProject, Scope::kUser}) {
    auto missing = nowhere.ReadRequest(scope);
    ASSERT_TRUE(missing.ok()) << missing.error().message();
    EXPECT_THAT(missing->aliases, IsEmpty());
  }
}

// A checkout's file may be planted by a server with a --dir on it: a sparse
// file of gigabytes takes no disk, and read whole would take that memory.
TEST_F(SettingsFilesTest, AFileOverItsBoundIsRefusedUnreadAndTheOthersStillAsk) {
  std::filesystem::create_directory(SettingsDirectory());
  Spit(Local(), kWeatherOnly);
  Spit(User(), kWeatherOnly);
  Spit(Project(), "");
  std::filesystem::resize_file(Project(), std::uintmax_t{5} << 20);
  auto refused = Files().ReadRequest(Scope::kProject);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(refused.error().message(),
            Project() +
                " is 5 MiB, more than a settings file may be (4 MiB), so it was not read: make it "
                "smaller, or move it away");
  FilesRequesting found = Files().FindFilesRequesting("weather");
  EXPECT_THAT(found.scopes, ElementsAre(Scope::kLocal, Scope::kUser));
  ASSERT_EQ(found.unreadable.size(), 1u);
  EXPECT_EQ(found.unreadable[0].scope, Scope::kProject);

  // One of exactly its bound is read.
  std::string full = R"({"mcp": {"request": ["weather"]}, "pad": ")";
  full.append((4 << 20) - full.size() - 2, ' ');
  full.append("\"}");
  Spit(Project(), full);
  ASSERT_EQ(std::filesystem::file_size(Project()), std::uintmax_t{4} << 20);
  auto within = Files().ReadRequest(Scope::kProject);
  ASSERT_TRUE(within.ok()) << within.error().message();
  EXPECT_THAT(within->aliases, ElementsAre("weather"));
}

TEST_F(SettingsFilesTest, PathsAreTheScopesFiles) {
  EXPECT_EQ(Files().PathOf(Scope::kLocal), Local());
  EXPECT_EQ(Files().PathOf(Scope::kProject), Project());
  EXPECT_EQ(Files().PathOf(Scope::kUser), User());
  EXPECT_EQ(SettingsFiles(Checkout(), nullptr).PathOf(Scope::kUser), "");
}

TEST_F(SettingsFilesTest, AddCreatesAPrivateFileInAPrivateDirectory) {
  const mode_t old_umask = ::umask(0);  // the modes must not depend on the umask
  auto added = Files().AddRequest(Scope::kLocal, "weather");
  ::umask(old_umask);
  ASSERT_TRUE(added.ok()) << added.error().message();
  EXPECT_EQ(*added, RequestChange::kAdded);
  EXPECT_EQ(ModeOf(SettingsDirectory()), 0700u);
  EXPECT_EQ(ModeOf(Local()), 0600u);
  EXPECT_EQ(Slurp(Local()), kWeatherOnly);
  EXPECT_FALSE(std::filesystem::exists(Project()));

  auto request = Files().ReadRequest(Scope::kLocal);
  ASSERT_TRUE(request.ok());
  EXPECT_THAT(request->aliases, ElementsAre("weather"));
}

TEST_F(SettingsFilesTest, AnExistingDirectoryKeepsItsModeAndTheFileBecomesPrivate) {
  std::filesystem::create_directory(SettingsDirectory());
  ::chmod(SettingsDirectory().c_str(), 0755);
  Spit(Project(), "{}");
  ::chmod(Project().c_str(), 0644);
  auto added = Files().AddRequest(Scope::kProject, "weather");
  ASSERT_TRUE(added.ok()) << added.error().message();
  EXPECT_EQ(ModeOf(SettingsDirectory()), 0755u);
  EXPECT_EQ(ModeOf(Project()), 0600u);
  EXPECT_EQ(Slurp(Project()), kWeatherOnly);
}

TEST_F(SettingsFilesTest, OtherKeysAreKeptAndKeysComeBackSorted) {
  std::filesystem::create_directory(SettingsDirectory());
  Spit(Project(),
       R"json({"zeta": [3, 1, 2], "permissions": {"deny": ["Bash(rm:*)"], "allow": []},)json"
       R"json( "mcp": {"request": ["docs", "not an alias"], "deny": ["maps"]}, "alpha": "é"})json");
  auto added = Files().AddRequest(Scope::kProject, "weather");
  ASSERT_TRUE(added.ok()) << added.error().message();
  EXPECT_EQ(Slurp(Project()), R"json({
  "alpha": "é",
  "mcp": {
    "deny": [
      "maps"
    ],
    "request": [
      "docs",
      "not an alias",
      "weather"
    ]
  },
  "permissions": {
    "allow": [],
    "deny": [
      "Bash(rm:*)"
    ]
  },
  "zeta": [
    3,
    1,
    2
  ]
}
)json");
}

TEST_F(SettingsFilesTest, AddingTwiceIsOneEntryAndWritesNothing) {
  ASSERT_EQ(*Files().AddRequest(Scope::kLocal, "weather"), RequestChange::kAdded);
  const ino_t written = InodeOf(Local());
  auto again = Files().AddRequest(Scope::kLocal, "weather");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, RequestChange::kAlreadyRequested);
  EXPECT_EQ(Slurp(Local()), kWeatherOnly);
  EXPECT_EQ(InodeOf(Local()), written);  // not replaced
}

TEST_F(SettingsFilesTest, RemoveTakesItOutAndKeepsTheRest) {
  std::filesystem::create_directory(SettingsDirectory());
  Spit(Local(), R"({"mcp": {"request": ["weather", "maps"]}, "theme": "dark"})");
  auto removed = Files().RemoveRequest(Scope::kLocal, "weather");
  ASSERT_TRUE(removed.ok()) << removed.error().message();
  EXPECT_EQ(*removed, RequestChange::kRemoved);
  EXPECT_EQ(Slurp(Local()),
            "{\n  \"mcp\": {\n    \"request\": [\n      \"maps\"\n    ]\n  },\n  \"theme\": "
            "\"dark\"\n}\n");
  EXPECT_EQ(ModeOf(Local()), 0600u);
}

TEST_F(SettingsFilesTest, RemovingWhatIsNotAskedForChangesNothing) {
  // No .bravebot at all: nothing is created.
  auto nothing = Files().RemoveRequest(Scope::kLocal, "weather");
  ASSERT_TRUE(nothing.ok()) << nothing.error().message();
  EXPECT_EQ(*nothing, RequestChange::kNotRequested);
  EXPECT_FALSE(std::filesystem::exists(SettingsDirectory()));

  // A .bravebot without the file: still nothing is created.
  std::filesystem::create_directory(SettingsDirectory());
  EXPECT_EQ(*Files().RemoveRequest(Scope::kProject, "weather"), RequestChange::kNotRequested);
  EXPECT_FALSE(std::filesystem::exists(Project()));
  EXPECT_TRUE(std::filesystem::is_empty(SettingsDirectory()));  // not even a lock file

  // A file that asks for something else is left byte for byte.
  const std::string text = R"({"mcp":{"request":["maps"]},   "b":1})";
  Spit(Project(), text);
  const ino_t before = InodeOf(Project());
  EXPECT_EQ(*Files().RemoveRequest(Scope::kProject, "weather"), RequestChange::kNotRequested);
  EXPECT_EQ(Slurp(Project()), text);
  EXPECT_EQ(InodeOf(Project()), before);

  // No user file, and a profile where the machine names none.
  EXPECT_EQ(*Files().RemoveRequest(Scope::kUser, "weather"), RequestChange::kNotRequested);
  EXPECT_FALSE(std::filesystem::exists(User()));
}

TEST_F(SettingsFilesTest, AFileThatDoesNotParseIsLeftByteForByte) {
  std::filesystem::create_directory(SettingsDirectory());
  const std::string text = "{\n  \"mcp\": {\"request\": [\"weather\"]},\n  \"key\": sk-live\n";
  Spit(Project(), text);
  for (bool add : {true, false}) {
    auto changed = add ? Files().AddRequest(Scope::kProject, "maps")
                       : Files().RemoveRequest(Scope::kProject, "weather");
    ASSERT_FALSE(changed.ok());
    EXPECT_EQ(changed.error().code(), ErrorCode::kCorrupt);
    EXPECT_THAT(changed.error().message(), HasSubstr(Project() + " is not JSON"));
    EXPECT_THAT(changed.error().message(), HasSubstr("line 3, column 10"));
    EXPECT_THAT(changed.error().message(), HasSubstr("left as it is"));
    EXPECT_THAT(changed.error().message(), Not(HasSubstr("sk-live")));
    EXPECT_EQ(Slurp(Project()), text);
  }
  auto read = Files().ReadRequest(Scope::kProject);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().code(), ErrorCode::kCorrupt);
}

TEST_F(SettingsFilesTest, ARequestThatIsNotAListIsLeftByteForByte) {
  std::filesystem::create_directory(SettingsDirectory());
  for (const std::string text :
       {R"({"mcp": {"request": "weather"}})", R"({"mcp":{"request":["weather",{"a":1}]}})"}) {
    Spit(Local(), text);
    for (bool add : {true, false}) {
      auto changed = add ? Files().AddRequest(Scope::kLocal, "maps")
                         : Files().RemoveRequest(Scope::kLocal, "weather");
      ASSERT_FALSE(changed.ok()) << text;
      EXPECT_EQ(changed.error().code(), ErrorCode::kCorrupt);
      EXPECT_THAT(changed.error().message(), HasSubstr(Local()));
      EXPECT_THAT(changed.error().message(), HasSubstr("its mcp.request is not a list"));
      EXPECT_EQ(Slurp(Local()), text);
    }
  }
}

TEST_F(SettingsFilesTest, ALinkedSettingsDirectoryIsRefusedAndItsTargetUntouched) {
  const std::string elsewhere = temporary_.Join("elsewhere");
  std::filesystem::create_directory(elsewhere);
  Spit(elsewhere + "/settings.json", R"({"mcp":{"request":["maps"]}})");
  std::filesystem::create_directory_symlink(elsewhere, SettingsDirectory());

  for (Scope scope : {Scope::kLocal, Scope::kProject}) {
    for (bool add : {true, false}) {
      auto changed =
          add ? Files().AddRequest(scope, "weather") : Files().RemoveRequest(scope, "maps");
      ASSERT_FALSE(changed.ok());
      EXPECT_EQ(changed.error().code(), ErrorCode::kRefused);
      EXPECT_THAT(changed.error().message(), HasSubstr(SettingsDirectory() + " is a link"));
    }
    auto read = Files().ReadRequest(scope);
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.error().code(), ErrorCode::kRefused);
  }
  EXPECT_TRUE(std::filesystem::is_symlink(SettingsDirectory()));
  EXPECT_EQ(Slurp(elsewhere + "/settings.json"), R"({"mcp":{"request":["maps"]}})");
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(elsewhere)) {
    names.push_back(entry.path().filename());
  }
  EXPECT_THAT(names, ElementsAre("settings.json"));  // no lock, no temporary file
}

TEST_F(SettingsFilesTest, ADanglingSettingsDirectoryLinkIsRefusedAndNotCreated) {
  const std::string target = temporary_.Join("not-yet");
  std::filesystem::create_directory_symlink(target, SettingsDirectory());
  auto added = Files().AddRequest(Scope::kLocal, "weather");
  ASSERT_FALSE(added.ok());
  EXPECT_EQ(added.error().code(), ErrorCode::kRefused);
  EXPECT_FALSE(std::filesystem::exists(target));
}

TEST_F(SettingsFilesTest, ALinkedSettingsFileIsRefusedAndItsTargetUntouched) {
  std::filesystem::create_directory(SettingsDirectory());
  const std::string target = temporary_.Join("target.json");
  Spit(target, R"({"mcp":{"request":["maps"]}})");
  std::filesystem::create_symlink(target, Project());
  std::filesystem::create_symlink(temporary_.Join("missing.json"), Local());

  for (bool add : {true, false}) {
    auto changed = add ? Files().AddRequest(Scope::kProject, "weather")
                       : Files().RemoveRequest(Scope::kProject, "maps");
    ASSERT_FALSE(changed.ok());
    EXPECT_EQ(changed.error().code(), ErrorCode::kRefused);
    EXPECT_THAT(changed.error().message(), HasSubstr(Project() + " is a link"));
  }
  auto dangling = Files().AddRequest(Scope::kLocal, "weather");
  ASSERT_FALSE(dangling.ok());
  EXPECT_EQ(dangling.error().code(), ErrorCode::kRefused);
  EXPECT_FALSE(std::filesystem::exists(temporary_.Join("missing.json")));

  EXPECT_TRUE(std::filesystem::is_symlink(Project()));
  EXPECT_EQ(Slurp(target), R"({"mcp":{"request":["maps"]}})");
  EXPECT_EQ(Files().ReadRequest(Scope::kProject).error().code(), ErrorCode::kRefused);
}

TEST_F(SettingsFilesTest, ALinkedLockIsRefused) {
  std::filesystem::create_directory(SettingsDirectory());
  const std::string target = temporary_.Join("lock-target");
  std::filesystem::create_symlink(target, SettingsDirectory() + "/.lock");
  auto added = Files().AddRequest(Scope::kLocal, "weather");
  ASSERT_FALSE(added.ok());
  EXPECT_EQ(added.error().code(), ErrorCode::kRefused);
  EXPECT_FALSE(std::filesystem::exists(target));
  EXPECT_FALSE(std::filesystem::exists(Local()));
}

TEST_F(SettingsFilesTest, ASettingsDirectoryThatIsAFileIsRefused) {
  Spit(SettingsDirectory(), "not a directory");
  auto added = Files().AddRequest(Scope::kLocal, "weather");
  ASSERT_FALSE(added.ok());
  EXPECT_EQ(added.error().code(), ErrorCode::kRefused);
  EXPECT_EQ(Slurp(SettingsDirectory()), "not a directory");
}

TEST_F(SettingsFilesTest, TheUserFileIsWrittenThroughALinkedProfileDirectory) {
  const std::string linked = temporary_.Join("linked-profile");
  std::filesystem::create_directory_symlink(temporary_.Join("profile"), linked);
  auto profile = ProfileDirectory::Open(linked, Create::kNo);
  ASSERT_TRUE(profile.ok());
  SettingsFiles files(Checkout(), &*profile);
  EXPECT_EQ(files.PathOf(Scope::kUser), linked + "/settings.json");

  auto added = files.AddRequest(Scope::kUser, "weather");
  ASSERT_TRUE(added.ok()) << added.error().message();
  EXPECT_EQ(*added, RequestChange::kAdded);
  EXPECT_EQ(Slurp(User()), kWeatherOnly);
  EXPECT_EQ(ModeOf(User()), 0600u);
  EXPECT_FALSE(std::filesystem::exists(SettingsDirectory()));  // nothing in the checkout
}

TEST_F(SettingsFilesTest, TheUserFileIsChangedUnderALockTheCallerHolds) {
  auto lock = profile_->Lock();
  ASSERT_TRUE(lock.ok());
  // Taking the lock again here would wait forever.
  auto added = Files().AddRequest(Scope::kUser, "weather", &*lock);
  ASSERT_TRUE(added.ok()) << added.error().message();
  EXPECT_EQ(*added, RequestChange::kAdded);
  EXPECT_EQ(*Files().RemoveRequest(Scope::kUser, "weather", &*lock), RequestChange::kRemoved);
}

TEST_F(SettingsFilesTest, ALinkedUserFileIsRefused) {
  const std::string target = temporary_.Join("user-target.json");
  Spit(target, "{}");
  std::filesystem::create_symlink(target, User());
  auto added = Files().AddRequest(Scope::kUser, "weather");
  ASSERT_FALSE(added.ok());
  EXPECT_EQ(added.error().code(), ErrorCode::kRefused);
  EXPECT_EQ(Slurp(target), "{}");
}

TEST_F(SettingsFilesTest, WithoutAProfileDirectoryTheUserFileCannotBeWritten) {
  SettingsFiles files(Checkout(), nullptr);
  auto added = files.AddRequest(Scope::kUser, "weather");
  ASSERT_FALSE(added.ok());
  EXPECT_EQ(added.error().code(), ErrorCode::kRefused);
  EXPECT_THAT(added.error().message(), HasSubstr("names no profile directory"));
  EXPECT_EQ(*files.AddRequest(Scope::kLocal, "weather"), RequestChange::kAdded);
}

TEST_F(SettingsFilesTest, AnInvalidAliasIsAUsageError) {
  for (const char* alias : {"", "-x", "a b", "weather\n", "../x"}) {
    auto added = Files().AddRequest(Scope::kLocal, alias);
    ASSERT_FALSE(added.ok()) << alias;
    EXPECT_EQ(added.error().code(), ErrorCode::kUsage);
  }
  EXPECT_FALSE(std::filesystem::exists(SettingsDirectory()));
}

TEST_F(SettingsFilesTest, FindsWhichFilesAskForAnAlias) {
  ASSERT_EQ(*Files().AddRequest(Scope::kLocal, "weather"), RequestChange::kAdded);
  ASSERT_EQ(*Files().AddRequest(Scope::kProject, "maps"), RequestChange::kAdded);
  ASSERT_EQ(*Files().AddRequest(Scope::kUser, "weather"), RequestChange::kAdded);

  FilesRequesting weather = Files().FindFilesRequesting("weather");
  EXPECT_THAT(weather.scopes, ElementsAre(Scope::kLocal, Scope::kUser));
  EXPECT_THAT(weather.unreadable, IsEmpty());
  EXPECT_THAT(Files().FindFilesRequesting("maps").scopes, ElementsAre(Scope::kProject));
  EXPECT_THAT(Files().FindFilesRequesting("docs").scopes, IsEmpty());

  Spit(Project(), "{ not json");
  FilesRequesting with_a_broken_file = Files().FindFilesRequesting("weather");
  EXPECT_THAT(with_a_broken_file.scopes, ElementsAre(Scope::kLocal, Scope::kUser));
  ASSERT_EQ(with_a_broken_file.unreadable.size(), 1u);
  EXPECT_EQ(with_a_broken_file.unreadable[0].scope, Scope::kProject);
  EXPECT_THAT(with_a_broken_file.unreadable[0].error.message(), HasSubstr(Project()));
}

TEST_F(SettingsFilesTest, ConcurrentWritersLoseNothing) {
  constexpr int kWriters = 50;
  for (Scope scope : {Scope::kProject, Scope::kUser}) {
    std::vector<std::thread> writers;
    std::vector<std::string> failures(kWriters);
    for (int i = 0; i < kWriters; ++i) {
      writers.emplace_back([&, i] {
        // Each writer its own SettingsFiles, as separate commands would be.
        SettingsFiles files(Checkout(), &*profile_);
        auto added = files.AddRequest(scope, "server-" + std::to_string(i));
        if (!added.ok()) {
          failures[i] = added.error().message();
        } else if (*added != RequestChange::kAdded) {
          failures[i] = "not added";
        }
      });
    }
    for (std::thread& writer : writers) writer.join();
    for (const std::string& failure : failures) EXPECT_EQ(failure, "");

    auto request = Files().ReadRequest(scope);
    ASSERT_TRUE(request.ok()) << request.error().message();
    EXPECT_EQ(request->aliases.size(), static_cast<size_t>(kWriters));
    for (int i = 0; i < kWriters; ++i) {
      EXPECT_TRUE(request->Requests("server-" + std::to_string(i))) << i;
    }
  }
  // No temporary file is left beside the settings file.
  for (const auto& entry : std::filesystem::directory_iterator(SettingsDirectory())) {
    EXPECT_THAT(entry.path().filename().string(), Not(HasSubstr(".new-")));
  }
}

}  // namespace
}  // namespace bravebot
