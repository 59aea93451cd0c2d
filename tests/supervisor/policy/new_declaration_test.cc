#include "supervisor/policy/new_declaration.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/fake_filesystem.h"

namespace bravebot {
namespace {

using ::testing::ElementsAre;
using testing::FakeFileSystem;
using ::testing::HasSubstr;

class NewDeclarationTest : public ::testing::Test {
 protected:
  NewDeclarationTest() {
    fs_.AddDirectory("/home/u/.bravebot");
    fs_.AddDirectory("/home/u/work/app/.git");
    fs_.AddDirectory("/srv/data");
    fs_.AddFile("/home/u/keys/brave-api-key", "sk");
    fs_.AddFile("/home/u/.bravebot/mcp.json", "{}");
    fs_.AddFile("/etc/server.conf", "");
    around_ = {"/home/u/work", "/home/u/.bravebot", "/home/u/.bravebot", &fs_, "/home/u"};
  }

  Declaration Stdio(const std::string& program, std::vector<std::string> arguments = {}) {
    Declaration declaration;
    declaration.alias = "server";
    declaration.program = program;
    declaration.arguments = std::move(arguments);
    return declaration;
  }

  FakeFileSystem fs_;
  DeclarationSurroundings around_;
};

TEST_F(NewDeclarationTest, ProgramByNameNamesPath) {
  auto declaration = CompleteDeclaration(Stdio("npx"), around_);
  ASSERT_TRUE(declaration.ok());
  EXPECT_THAT(declaration->passed_variables, ElementsAre("PATH"));
}

TEST_F(NewDeclarationTest, PathStoredOrNamedIsNotAddedAgain) {
  Declaration stored = Stdio("npx");
  stored.stored_variables = {{"PATH", "/usr/bin"}};
  auto declaration = CompleteDeclaration(stored, around_);
  ASSERT_TRUE(declaration.ok());
  EXPECT_TRUE(declaration->passed_variables.empty());
}

TEST_F(NewDeclarationTest, ProgramByPathNamesNoPathAndIsMadeAbsolute) {
  auto absolute = CompleteDeclaration(Stdio("/usr/bin/server"), around_);
  ASSERT_TRUE(absolute.ok());
  EXPECT_TRUE(absolute->passed_variables.empty());
  auto relative = CompleteDeclaration(Stdio("./bin/../bin/server"), around_);
  ASSERT_TRUE(relative.ok());
  EXPECT_EQ(relative->program, "/home/u/work/bin/server");
}

TEST_F(NewDeclarationTest, FilesItMayReadComeFromValuesAndArguments) {
  Declaration typed =
      Stdio("npx", {"-y", "server", "/etc/server.conf", "--key=/home/u/keys/brave-api-key",
                    "/srv/data", "/home/u/.bravebot/mcp.json", "/missing"});
  typed.stored_variables = {{"BRAVE_API_KEY_FILE", "/home/u/keys/brave-api-key"}};
  auto declaration = CompleteDeclaration(typed, around_);
  ASSERT_TRUE(declaration.ok());
  // Once each; never a directory; never anything of the profile directory.
  EXPECT_THAT(declaration->may_read, ElementsAre("/home/u/keys/brave-api-key", "/etc/server.conf"));
}

TEST_F(NewDeclarationTest, AFileReachedThroughTheProfileDirectoryIsNotRecorded) {
  fs_.AddLink("/home/u/innocent", "/home/u/.bravebot/mcp.json");
  auto declaration = CompleteDeclaration(Stdio("npx", {"/home/u/innocent"}), around_);
  ASSERT_TRUE(declaration.ok());
  EXPECT_TRUE(declaration->may_read.empty());
}

TEST_F(NewDeclarationTest, DirectoryIsKeptAsTheAbsolutePathItResolvesTo) {
  fs_.AddLink("/home/u/work/data", "/srv/data");
  Declaration typed = Stdio("npx");
  typed.directory = "data";
  auto declaration = CompleteDeclaration(typed, around_);
  ASSERT_TRUE(declaration.ok()) << declaration.error().message();
  EXPECT_EQ(declaration->directory, "/srv/data");
}

TEST_F(NewDeclarationTest, DirectoryInsideARepositoryIsRefused) {
  fs_.AddDirectory("/home/u/work/app/src");
  Declaration typed = Stdio("npx");
  typed.directory = "/home/u/work/app/src";
  auto declaration = CompleteDeclaration(typed, around_);
  ASSERT_FALSE(declaration.ok());
  EXPECT_EQ(declaration.error().code(), ErrorCode::kRefused);
  EXPECT_THAT(declaration.error().message(),
              HasSubstr("/home/u/work/app/src is inside the git repository /home/u/work/app"));
  EXPECT_THAT(declaration.error().message(), HasSubstr("git runs the commands"));
}

TEST_F(NewDeclarationTest, LinkIntoARepositoryIsRefused) {
  fs_.AddLink("/srv/link", "/home/u/work/app");
  Declaration typed = Stdio("npx");
  typed.directory = "/srv/link";
  auto declaration = CompleteDeclaration(typed, around_);
  ASSERT_FALSE(declaration.ok());
  EXPECT_THAT(declaration.error().message(), HasSubstr("/home/u/work/app is a git repository"));
}

TEST_F(NewDeclarationTest, ProfileDirectoryInsideOrAboveIsRefused) {
  fs_.AddDirectory("/home/u/.bravebot/mcp-home");
  for (const char* directory :
       {"/home/u/.bravebot", "/home/u/.bravebot/mcp-home", "/home/u", "/home"}) {
    Declaration typed = Stdio("npx");
    typed.directory = directory;
    auto declaration = CompleteDeclaration(typed, around_);
    ASSERT_FALSE(declaration.ok()) << directory;
    EXPECT_THAT(declaration.error().message(), HasSubstr("profile directory")) << directory;
  }
}

TEST_F(NewDeclarationTest, MissingDirectoryOrAFileIsRefused) {
  Declaration typed = Stdio("npx");
  typed.directory = "/nowhere";
  EXPECT_THAT(CompleteDeclaration(typed, around_).error().message(), HasSubstr("does not exist"));
  typed.directory = "/etc/server.conf";
  EXPECT_THAT(CompleteDeclaration(typed, around_).error().message(),
              HasSubstr("is not a directory"));
}

TEST_F(NewDeclarationTest, AWordThatIsNotUtf8IsRefusedWithoutRepeatingIt) {
  Declaration typed = Stdio("npx", {"ok"});
  typed.stored_variables = {{"KEY", "sk\xff\xfe"}};
  auto declaration = CompleteDeclaration(typed, around_);
  ASSERT_FALSE(declaration.ok());
  EXPECT_THAT(declaration.error().message(), HasSubstr("not UTF-8"));
  EXPECT_THAT(declaration.error().message(), ::testing::Not(HasSubstr("sk")));
}

TEST_F(NewDeclarationTest, HttpIsTakenAsItIs) {
  Declaration typed;
  typed.alias = "docs";
  typed.transport = Transport::kHttp;
  typed.url = "https://mcp.example.com/mcp";
  auto declaration = CompleteDeclaration(typed, around_);
  ASSERT_TRUE(declaration.ok());
  EXPECT_EQ(*declaration, typed);
}

}  // namespace
}  // namespace bravebot
