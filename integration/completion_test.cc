// The bash completion installed beside the programs: it knows every command
// and every option the programs' own --help names, and completes them, the
// scopes and the declared aliases in a real bash.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "integration/profile_fixture.h"

namespace bravebot::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::string kCompletion = std::string(BRAVEBOT_SOURCE_DIRECTORY) + "/completion/bravebot-mcp";

class CompletionTest : public ProfileTest {
 protected:
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
    CommandOutput bash = RunCommand({"/bin/bash", "-c", script}, environment, temporary_.path());
    std::vector<std::string> words;
    std::istringstream lines(bash.out);
    for (std::string word; std::getline(lines, word);) {
      if (!word.empty()) words.push_back(word);
    }
    return words;
  }
};

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

}  // namespace
}  // namespace bravebot::testing
