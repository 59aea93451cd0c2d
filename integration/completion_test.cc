// The bash, zsh and fish completions installed beside the programs: each
// knows every command and every option the programs' own --help names, and
// completes them, the scopes and the declared aliases in a real shell.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "integration/profile_fixture.h"

namespace bravebot::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::string kCompletion = std::string(BRAVEBOT_SOURCE_DIRECTORY) + "/completion/bravebot-mcp";
const std::string kZshCompletion =
    std::string(BRAVEBOT_SOURCE_DIRECTORY) + "/completion/_bravebot-mcp";
const std::string kFishCompletion =
    std::string(BRAVEBOT_SOURCE_DIRECTORY) + "/completion/bravebot-mcp.fish";

std::string Slurped(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), {}};
}

class CompletionTest : public ProfileTest {
 protected:
  // A program server and a service, whose aliases the completions offer.
  void DeclareTwo() {
    ASSERT_EQ(Mcp({"add", "weather", "--", "/bin/cat"}).status, 0);
    ASSERT_EQ(Mcp({"add", "docs", "--http", "https://mcp.example.com/mcp"}).status, 0);
  }

  // What the completion offers for `line` (the words typed so far, the last
  // one being completed), one word a line, sorted.
  std::vector<std::string> Offered(const std::string& line) {
    const std::string script = "source " + kCompletion + "; COMP_WORDS=(" + line +
                               "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); "
                               "[[ \"" +
                               line +
                               "\" == *' ' ]] && { COMP_WORDS+=(''); "
                               "COMP_CWORD=$((COMP_CWORD + 1)); }; _bravebot_mcp; "
                               "printf '%s\\n' \"${COMPREPLY[@]}\" | sort";
    std::vector<std::string> environment = Environment();
    environment.back() = "PATH=" + OurProgram("") + ":/usr/bin:/bin";
    return Lines(RunCommand({"/bin/bash", "-c", script}, environment, temporary_.path()).out);
  }

  // The same from zsh's completion, run in a plain zsh with compadd (and
  // the file completers) standing in for the completion system: every word
  // it would add that begins with what is typed.
  std::vector<std::string> OfferedByZsh(const std::string& line) {
    const std::string script =
        "compadd() { shift; print -rl -- \"$@\"; }; _files() { print -r -- '(files)'; }; "
        "_command_names() { print -r -- '(commands)'; }; words=(${(z)1}); "
        "[[ $1 == *' ' ]] && words+=(''); CURRENT=${#words}; service=${words[1]}; "
        "source " +
        kZshCompletion;
    CommandOutput zsh = RunCommand({"/usr/bin/zsh", "-f", "-c", script, "zsh", line}, PathToUs(),
                                   temporary_.path());
    const std::string typed = line.back() == ' ' ? "" : line.substr(line.rfind(' ') + 1);
    std::vector<std::string> words;
    for (const std::string& word : Lines(zsh.out)) {
      if (word.starts_with(typed) || word.starts_with("(")) words.push_back(word);
    }
    std::sort(words.begin(), words.end());
    return words;
  }

  // The same from fish's completion, as fish itself completes `line`.
  std::vector<std::string> OfferedByFish(const std::string& line) {
    const std::string script = "source " + kFishCompletion + "; complete -C '" + line + "'";
    CommandOutput fish =
        RunCommand({"/usr/bin/fish", "--no-config", "-c", script}, PathToUs(), temporary_.path());
    std::vector<std::string> words;
    for (const std::string& offered : Lines(fish.out))
      words.push_back(offered.substr(0, offered.find('\t')));
    std::sort(words.begin(), words.end());
    return words;
  }

  std::vector<std::string> PathToUs() const {
    std::vector<std::string> environment = Environment();
    environment.back() = "PATH=" + OurProgram("") + ":/usr/bin:/bin";
    return environment;
  }

  static std::vector<std::string> Lines(const std::string& text) {
    std::vector<std::string> words;
    std::istringstream lines(text);
    for (std::string word; std::getline(lines, word);) {
      if (!word.empty()) words.push_back(word);
    }
    return words;
  }

  // Every command --help lists, and the options each one's --help names.
  std::map<std::string, std::vector<std::string>> CommandsAndOptions() {
    const std::regex command_row("\n  ([a-z]+) +[a-z]");
    const std::string usage = Mcp({"--help"}).out;
    std::map<std::string, std::vector<std::string>> commands;
    for (std::sregex_iterator it(usage.begin(), usage.end(), command_row), end; it != end; ++it) {
      commands[(*it)[1]];
    }
    const std::regex option("(^|[\\s,\\[])(--?[a-z][a-z-]*)");
    for (auto& [command, options] : commands) {
      const std::string help = Mcp({command, "--help"}).out;
      for (std::sregex_iterator it(help.begin(), help.end(), option), end; it != end; ++it) {
        options.push_back((*it)[2]);
      }
    }
    return commands;
  }
};

// Why a test of `shell` cannot run here, or "": scripts/setup.sh installs
// zsh and fish for these tests.
std::string Missing(const std::string& shell) {
  if (::access(shell.c_str(), X_OK) == 0) return "";
  return shell +
         " is not installed here: scripts/setup.sh installs it, and this test runs the "
         "completion in it";
}

TEST_F(CompletionTest, KnowsEveryCommandAndEveryOptionItsHelpNames) {
  std::ifstream in(kCompletion);
  ASSERT_TRUE(in) << kCompletion;
  const std::string completion{std::istreambuf_iterator<char>(in), {}};
  const std::regex command_row("\n  ([a-z]+) +[a-z]");
  const std::string usage = Mcp({"--help"}).out;
  std::set<std::string> commands;
  for (std::sregex_iterator it(usage.begin(), usage.end(), command_row), end; it != end; ++it) {
    commands.insert((*it)[1]);
  }
  ASSERT_EQ(commands.size(), 16u) << usage;
  const std::regex option("(^|[\\s,\\[])(--?[a-z][a-z-]*)");
  for (const std::string& command : commands) {
    EXPECT_THAT(completion, HasSubstr(" " + command)) << command;
    const std::string help = Mcp({command, "--help"}).out;
    for (std::sregex_iterator it(help.begin(), help.end(), option), end; it != end; ++it) {
      const std::string name = (*it)[2];
      EXPECT_TRUE(std::regex_search(completion, std::regex("[ \"]" + name + "[ \"]")))
          << command << " " << name;
    }
  }
}

TEST_F(CompletionTest, CompletesCommandsScopesAndDeclaredAliases) {
  ASSERT_EQ(Mcp({"add", "weather", "--", "/bin/cat"}).status, 0);
  ASSERT_EQ(Mcp({"add", "docs", "--http", "https://mcp.example.com/mcp"}).status, 0);
  EXPECT_THAT(Offered("bravebot-mcp l"), ElementsAre("list", "login", "logout"));
  EXPECT_THAT(Offered("bravebot-mcp login "), ElementsAre("docs", "weather"));
  EXPECT_THAT(Offered("bravebot-mcp add weather --s"), ElementsAre("--scope", "--stdio"));
  EXPECT_THAT(Offered("bravebot-mcp enable weather -s "), ElementsAre("local", "project", "user"));
  EXPECT_THAT(Offered("bravebot-mcp get "), ElementsAre("docs", "weather"));
  EXPECT_THAT(Offered("bravebot-mcp reach w"), ElementsAre("weather"));
  EXPECT_THAT(Offered("bravebot-mcp approve weather --t"), ElementsAre("--tools"));
}

// zsh's and fish's completions name what bash's does: every command, and
// every option each one's --help names (fish spells --json as -l json).
TEST_F(CompletionTest, ZshAndFishKnowEveryCommandAndEveryOption) {
  const std::string zsh = Slurped(kZshCompletion);
  const std::string fish = Slurped(kFishCompletion);
  const auto commands = CommandsAndOptions();
  ASSERT_EQ(commands.size(), 16u);
  for (const auto& [command, options] : commands) {
    EXPECT_THAT(zsh, HasSubstr(" " + command)) << command;
    EXPECT_THAT(fish, HasSubstr(" " + command)) << command;
    for (const std::string& name : options) {
      EXPECT_TRUE(std::regex_search(zsh, std::regex("[ (]" + name + "[ )\n]")))
          << command << " " << name;
      const std::string spelled =
          name.starts_with("--") ? "-l " + name.substr(2) : "-s " + name.substr(1);
      EXPECT_THAT(fish, HasSubstr(spelled)) << command << " " << name;
    }
  }
}

// What both shells' completions must offer, `offered` asking one of them,
// with two servers declared.
void ExpectCommandsScopesAndAliases(
    const std::function<std::vector<std::string>(const std::string&)>& offered) {
  EXPECT_THAT(offered("bravebot-mcp l"), ElementsAre("list", "login", "logout"));
  EXPECT_THAT(offered("bravebot-mcp login "), ElementsAre("docs", "weather"));
  EXPECT_THAT(offered("bravebot-mcp add weather --s"), ElementsAre("--scope", "--stdio"));
  EXPECT_THAT(offered("bravebot-mcp enable weather -s "), ElementsAre("local", "project", "user"));
  EXPECT_THAT(offered("bravebot-mcp audit --p"), ElementsAre("--probe", "--prune"));
  EXPECT_THAT(offered("mcp-run w"), ElementsAre("weather"));
}

TEST_F(CompletionTest, ZshCompletesCommandsScopesAndDeclaredAliases) {
  if (const std::string why = Missing("/usr/bin/zsh"); !why.empty()) GTEST_SKIP() << why;
  DeclareTwo();
  ExpectCommandsScopesAndAliases([this](const std::string& line) { return OfferedByZsh(line); });
  EXPECT_THAT(OfferedByZsh("bravebot-mcp add x -- "), ElementsAre("(commands)"));
}

TEST_F(CompletionTest, FishCompletesCommandsScopesAndDeclaredAliases) {
  if (const std::string why = Missing("/usr/bin/fish"); !why.empty()) GTEST_SKIP() << why;
  DeclareTwo();
  ExpectCommandsScopesAndAliases([this](const std::string& line) { return OfferedByFish(line); });
}

}  // namespace
}  // namespace bravebot::testing
