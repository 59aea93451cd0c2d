// The commands end to end: what a person types and what comes back, with the
// exit status a script reads.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "base/unique_fd.h"
#include "integration/dumpable.h"
#include "integration/profile_fixture.h"
#include "integration/running_command.h"

namespace bravebot::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

class CommandsTest : public ProfileTest {};

TEST_F(CommandsTest, AddShowsWhatItDeclared) {
  CommandOutput add = Mcp({"add", "weather", "--", "npx", "-y", "@dangahagan/weather-mcp@latest"});
  ASSERT_EQ(add.status, 0) << add.err;
  EXPECT_THAT(add.out, StartsWith("declared weather in " + DeclarationFile() + "\n\n" +
                                  "  weather   stdio   npx -y @dangahagan/weather-mcp@latest\n" +
                                  "            variables: PATH\n" + "            digest: "));
  EXPECT_THAT(add.out, HasSubstr("run bravebot-mcp enable weather at a terminal"));
  EXPECT_EQ(add.err, "");
}

// A program whose #! interpreter the reach will not give (a virtual
// environment where a server may write: another's --dir here, /tmp in
// life), and a PATH entry it will not give: add says so, and what to do.
TEST_F(CommandsTest, AddWarnsWhereTheReachWillNotGiveWhatItsProgramRunsThrough) {
  const std::string venv = temporary_.Join("venv");
  std::filesystem::create_directories(venv + "/bin");
  std::filesystem::create_symlink("/bin/sh", venv + "/bin/python");
  std::ofstream(venv + "/bin/server") << "#!" << venv << "/bin/python\nexit 0\n";
  ::chmod((venv + "/bin/server").c_str(), 0755);
  ASSERT_EQ(Mcp({"add", "writer", "--dir", venv, "--", "/bin/cat"}).status, 0);
  CommandOutput add = Mcp({"add", "py", "--", venv + "/bin/server"});
  EXPECT_EQ(add.status, 0) << add.err;
  EXPECT_THAT(add.out, HasSubstr("declared py in "));
  EXPECT_EQ(add.err, "warning: py will not start as declared: " + venv +
                         "/bin/python: the interpreter the #! line of " + venv +
                         "/bin/server names is not given, since that program lies in " + venv +
                         ", a directory a server may write. A server may rewrite a program "
                         "there, #! line and all, so that line gives nothing: make the "
                         "installation (a Python virtual environment, say) where no server may "
                         "write, such as under your home, not under /tmp or a --dir, and declare "
                         "py again with its program there\n");

  CommandOutput path = Mcp({"add", "cat", "-e", "PATH=relative:/usr/bin:/bin", "--", "cat"});
  EXPECT_EQ(path.status, 0) << path.err;
  EXPECT_EQ(path.err,
            "warning: cat will not find programs in relative: a PATH entry that is not an "
            "absolute path is not given; bravebot-mcp reach cat shows what it is given\n");
  EXPECT_EQ(Mcp({"add", "plain", "--", "/bin/cat"}).err, "");
}

TEST_F(CommandsTest, GetShowsTheWholeDigestAndListTheShortOne) {
  ASSERT_EQ(Mcp({"add", "weather", "--", "npx", "-y", "@dangahagan/weather-mcp@latest"}).status, 0);
  ASSERT_EQ(Mcp({"add", "docs", "--http", "https://mcp.example.com/mcp"}).status, 0);
  const std::string digest = "21307ff7913323d1c2022c577ac8def56ff1009c313cb230c477be8c41ce1e8b";
  CommandOutput get = Mcp({"get", "weather"});
  ASSERT_EQ(get.status, 0);
  EXPECT_EQ(get.out, "declared in " + DeclarationFile() + "\n" +
                         "  weather   stdio   npx -y @dangahagan/weather-mcp@latest\n" +
                         RunsRow("weather", "npx") + "            variables: PATH\n" +
                         "            digest: " + digest + "\n" + "            unapproved\n");
  CommandOutput list = Mcp({"list"});
  ASSERT_EQ(list.status, 0);
  EXPECT_THAT(list.out, HasSubstr("  weather  stdio  unapproved  21307ff7\n"));
  EXPECT_THAT(list.out, HasSubstr("  docs     http   unapproved  "));
}

// Issue 28, the spec: an administrator's command entry names the program
// as the absolute path it is found at, "the path mcp get shows as runs".
TEST_F(CommandsTest, GetShowsWhereAProgramNamedThroughPathRuns) {
  ASSERT_EQ(Mcp({"add", "named", "--", "cat"}).status, 0);
  ASSERT_EQ(Mcp({"add", "given", "--", "/bin/cat"}).status, 0);
  CommandOutput named = Mcp({"get", "named"});
  ASSERT_EQ(named.status, 0) << named.err;
  // PATH=/usr/bin:/bin here: the first that holds it.
  EXPECT_THAT(named.out, HasSubstr("  named   stdio   cat\n          runs /usr/bin/cat\n"));
  EXPECT_EQ(nlohmann::json::parse(Mcp({"get", "named", "--json"}).out)["runs"], "/usr/bin/cat");
  // A path given is what runs: no row, no key.
  EXPECT_THAT(Mcp({"get", "given"}).out, Not(HasSubstr("runs ")));
  EXPECT_FALSE(nlohmann::json::parse(Mcp({"get", "given", "--json"}).out).contains("runs"));
}

TEST_F(CommandsTest, ReplacingAnAliasReplacesItsDeclaration) {
  ASSERT_EQ(Mcp({"add", "weather", "--", "npx", "-y", "w@latest"}).status, 0);
  ASSERT_EQ(Mcp({"add", "weather", "--", "npx", "-y", "w@1.4.0"}).status, 0);
  CommandOutput get = Mcp({"get", "weather"});
  EXPECT_THAT(get.out, HasSubstr("npx -y w@1.4.0\n"));
  EXPECT_EQ(nlohmann::json::parse(Mcp({"list", "--json"}).out)["servers"].size(), 1u);
}

TEST_F(CommandsTest, ExitStatuses) {
  EXPECT_EQ(Mcp({}).status, 2);
  EXPECT_EQ(Mcp({"frobnicate"}).status, 2);
  EXPECT_EQ(Mcp({"add", "weather"}).status, 2);
  EXPECT_EQ(Mcp({"get"}).status, 2);
  EXPECT_EQ(Mcp({"get", "weather", "extra"}).status, 2);
  EXPECT_EQ(Mcp({"list", "--frob"}).status, 2);
  EXPECT_EQ(Mcp({"get", "weather"}).status, 1);     // not declared
  EXPECT_EQ(Mcp({"remove", "weather"}).status, 1);  // not declared
  EXPECT_EQ(Mcp({"add", "weather", "--dir", "/nonexistent", "--", "npx"}).status, 1);
  for (const char* command : {"add", "get", "list", "remove"}) {
    CommandOutput help = Mcp({command, "--help"});
    EXPECT_EQ(help.status, 0) << command;
    EXPECT_THAT(help.out, HasSubstr(command)) << command;
  }
  EXPECT_EQ(Mcp({"--help"}).status, 0);
}

TEST_F(CommandsTest, EveryProgramSaysItsVersion) {
  for (const char* program : {"bravebot-mcp", "bravebot-mcp-probe", "bravebot-mcp-init", "mcp-run",
                              "bravebot-supervisor"}) {
    CommandOutput version = RunCommand({OurProgram(program), "--version"}, Environment());
    EXPECT_EQ(version.status, 0) << program << version.err;
    EXPECT_THAT(version.out,
                ::testing::MatchesRegex(std::string(program) + " [0-9]+\\.[0-9]+\\.[0-9]+\n"));
  }
}

TEST_F(CommandsTest, AMistypedCommandIsAnsweredWithTheClosestOne) {
  CommandOutput typo = Mcp({"lst"});
  EXPECT_EQ(typo.status, 2);
  EXPECT_EQ(typo.err,
            "bravebot-mcp: there is no command lst; did you mean list? bravebot-mcp --help lists "
            "them\n");
  EXPECT_EQ(Mcp({"frobnicate"}).err,
            "bravebot-mcp: there is no command frobnicate; bravebot-mcp --help lists them\n");
}

TEST_F(CommandsTest, AnOptionGluedToItsValueIsRead) {
  std::filesystem::create_directories(temporary_.Join("d"));
  CommandOutput add = Mcp({"add", "x", "--dir=" + temporary_.Join("d"), "--", "/bin/cat"});
  EXPECT_EQ(add.status, 0) << add.err;
  EXPECT_THAT(add.out, HasSubstr("directory: " + temporary_.Join("d")));
}

TEST_F(CommandsTest, ARepositoryIsRefusedAsADirectory) {
  std::filesystem::create_directories(temporary_.Join("app/.git"));
  std::filesystem::create_directories(temporary_.Join("app/data"));
  CommandOutput add = Mcp({"add", "fs", "--dir", "app/data", "--", "npx"});
  EXPECT_EQ(add.status, 1);
  EXPECT_THAT(add.err, HasSubstr("is inside the git repository " +
                                 std::filesystem::canonical(temporary_.Join("app")).string()));
  EXPECT_FALSE(std::filesystem::exists(DeclarationFile()));

  std::filesystem::create_directories(temporary_.Join("data"));
  add = Mcp({"add", "fs", "--dir", "data", "--", "npx"});
  ASSERT_EQ(add.status, 0) << add.err;
  EXPECT_THAT(add.out, HasSubstr("directory: " +
                                 std::filesystem::canonical(temporary_.Join("data")).string()));
}

TEST_F(CommandsTest, AFileAnArgumentNamesIsShownAsMayRead) {
  const std::string key = temporary_.Join("brave-api-key");
  std::ofstream(key) << "sk";
  CommandOutput add =
      Mcp({"add", "brave", "-e", "BRAVE_API_KEY_FILE=" + key, "--", "npx", "-y", "brave-search"});
  ASSERT_EQ(add.status, 0) << add.err;
  EXPECT_THAT(add.out, HasSubstr("variables: BRAVE_API_KEY_FILE (stored), PATH\n"));
  EXPECT_THAT(add.out, HasSubstr("may read: " + key + "\n"));
}

TEST_F(CommandsTest, AnIncognitoSessionWritesNothing) {
  ASSERT_EQ(Mcp({"add", "weather", "--", "npx"}).status, 0);
  const std::string before = Slurp(DeclarationFile());
  std::vector<std::string> environment = Environment();
  environment.push_back("BRAVEBOT_INCOGNITO=1");
  for (auto words : std::vector<std::vector<std::string>>{{"add", "maps", "--", "npx"},
                                                          {"remove", "weather"},
                                                          {"approve", "weather"},
                                                          {"enable", "weather"},
                                                          {"disable", "weather"},
                                                          {"forget"}}) {
    words.insert(words.begin(), OurProgram("bravebot-mcp"));
    CommandOutput output = RunCommand(words, environment, temporary_.path());
    EXPECT_EQ(output.status, 1) << words[1];
    EXPECT_THAT(output.err, HasSubstr("incognito")) << words[1];
  }
  // The table refuses it before a word is read, in one sentence for each.
  auto incognito = [&](std::vector<std::string> words) {
    words.insert(words.begin(), OurProgram("bravebot-mcp"));
    return RunCommand(words, environment, temporary_.path());
  };
  CommandOutput add = incognito({"add", "not an alias!"});
  EXPECT_EQ(add.status, 1);
  EXPECT_EQ(add.err,
            "bravebot-mcp add: an incognito session writes nothing under the profile directory, so "
            "nothing can be declared in one\n");
  EXPECT_EQ(incognito({"disable", "a", "b"}).err,
            "bravebot-mcp disable: an incognito session writes nothing under the profile "
            "directory, so nothing can be disabled in one\n");
  // Help is still given, and a command that only reads still reads.
  EXPECT_EQ(incognito({"add", "--help"}).status, 0);
  EXPECT_EQ(incognito({"get", "weather"}).status, 0);
  EXPECT_EQ(Slurp(DeclarationFile()), before);
  EXPECT_FALSE(std::filesystem::exists(temporary_.Join(".bravebot")));
}

TEST_F(CommandsTest, ItMakesItselfNonDumpable) {
  // Held here, the lock keeps add waiting, and running, for as long as we look.
  std::filesystem::create_directories(Profile());
  ::chmod(Profile().c_str(), 0700);
  UniqueFd lock(::open((Profile() + "/.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600));
  ASSERT_TRUE(lock.valid());
  ASSERT_EQ(::flock(lock.get(), LOCK_EX), 0);
  RunningCommand add(
      WithAnOwnerOtherThanRoot({OurProgram("bravebot-mcp"), "add", "x", "--", "/bin/cat"}),
      Environment(), temporary_.path(), temporary_.Join("stderr"));
  EXPECT_TRUE(BecomesNonDumpable(add.pid(), "bravebot-mcp"));
  EXPECT_FALSE(add.Wait(In(std::chrono::milliseconds(0)))) << Slurp(temporary_.Join("stderr"));
  ::flock(lock.get(), LOCK_UN);
  EXPECT_EQ(add.Wait(In(std::chrono::seconds(10))), 0) << Slurp(temporary_.Join("stderr"));
}

TEST_F(CommandsTest, NoProfileDirectory) {
  const std::vector<std::string> nothing = {"PATH=/usr/bin:/bin"};
  CommandOutput add =
      RunCommand({OurProgram("bravebot-mcp"), "add", "weather", "--", "npx"}, nothing);
  EXPECT_EQ(add.status, 1);
  EXPECT_THAT(add.err, HasSubstr("names no profile directory"));
  CommandOutput list = RunCommand({OurProgram("bravebot-mcp"), "list"}, nothing);
  EXPECT_EQ(list.status, 0);
  EXPECT_THAT(list.out, HasSubstr("nothing is declared"));
  CommandOutput remove = RunCommand({OurProgram("bravebot-mcp"), "remove", "weather"}, nothing);
  EXPECT_EQ(remove.status, 1);
}

TEST_F(CommandsTest, AProfileDirectoryNotYetMadeDeclaresNothingAndIsNotMadeToSaySo) {
  CommandOutput list = Mcp({"list"});
  EXPECT_EQ(list.status, 0);
  EXPECT_THAT(list.out, HasSubstr("nothing is declared in " + DeclarationFile()));
  CommandOutput remove = Mcp({"remove", "weather"});
  EXPECT_EQ(remove.status, 1);
  EXPECT_THAT(remove.err, HasSubstr("weather is not declared in " + DeclarationFile()));
  CommandOutput refused = Mcp({"add", "weather", "--dir", "/nonexistent", "--", "npx"});
  EXPECT_EQ(refused.status, 1);
  EXPECT_THAT(refused.err, HasSubstr("does not exist: create it first; nothing was declared"));
  EXPECT_FALSE(std::filesystem::exists(Profile()));
}

TEST_F(CommandsTest, DotDotAfterALinkIsReadAsTheKernelReadsIt) {
  std::filesystem::create_directories(temporary_.Join("real/inner"));
  std::filesystem::create_directories(temporary_.Join("real/sibling"));
  std::filesystem::create_directories(temporary_.Join("sibling"));
  std::filesystem::create_symlink(temporary_.Join("real/inner"), temporary_.Join("link"));
  CommandOutput add = Mcp({"add", "fs", "--dir", "link/../sibling", "--", "npx"});
  ASSERT_EQ(add.status, 0) << add.err;
  EXPECT_THAT(add.out,
              HasSubstr("directory: " +
                        std::filesystem::canonical(temporary_.Join("real/sibling")).string()));
}

}  // namespace
}  // namespace bravebot::testing
