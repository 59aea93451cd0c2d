// The settings of docs/connecting-gmail.md, docs/connecting-google-calendar.md
// and docs/connecting-github.md, tried in a session. Each page's JSON block
// (the one after its marker comment) is read out of the page itself and
// written as the person's settings.json, so the page and this test cannot
// drift; the tools are the pinned lists of
// integration/fixtures/tool_lists/, read here and served by
// fake_servers/tool_list_server. Then every tool marked `writes` is refused by
// a deny rule before anybody is asked, every other tool is put to the person,
// and every rule names a tool of the fixture.
//
// Google's Gmail and Calendar servers are services reached over HTTP; here a
// stdio program stands in for each, since the rules concern tool names alone
// and a deny rule is decided before the call goes anywhere.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "integration/supervisor_fixture.h"
#include "integration/terminal.h"

namespace bravebot::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kMarker[] =
    "<!-- settings: integration/connecting_pages_test.cc reads this block -->";

struct Page {
  const char* page;     // under docs/
  const char* fixture;  // under integration/fixtures/tool_lists/
  const char* later;    // the fixture's list of tools not pinned: remoteOnly or seenLater
};

// Names the page in a test's failure, rather than the struct's bytes.
void PrintTo(const Page& page, std::ostream* out) { *out << page.page; }

std::string Slurped(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// The JSON block after the page's one marker; null where there is none, or
// more than one.
Json SettingsOfPage(const std::string& text) {
  const size_t marker = text.find(kMarker);
  if (marker == std::string::npos || text.find(kMarker, marker + 1) != std::string::npos) {
    return nullptr;
  }
  const std::string fence = "```json\n";
  const size_t start = text.find(fence, marker);
  const size_t end = text.find("\n```", start);
  if (start == std::string::npos || end == std::string::npos) return nullptr;
  return Json::parse(text.substr(start + fence.size(), end - start - fence.size()), nullptr, false);
}

class ConnectingPageTest : public SupervisorTest, public ::testing::WithParamInterface<Page> {
 protected:
  void SetUp() override {
    SupervisorTest::SetUp();
    // BRAVEBOT_PAGES_SOURCE where set: the pages and the fixtures staged
    // where an unprivileged user can read them (scripts/test-as-user.sh).
    const char* staged = std::getenv("BRAVEBOT_PAGES_SOURCE");
    const std::string source =
        staged != nullptr && *staged != '\0' ? staged : BRAVEBOT_SOURCE_DIRECTORY;
    fixture_path_ = source + "/integration/fixtures/tool_lists/" + GetParam().fixture;
    fixture_ = Json::parse(Slurped(fixture_path_), nullptr, false);
    ASSERT_FALSE(fixture_.is_discarded()) << fixture_path_;
    alias_ = fixture_["server"].get<std::string>();
    const std::string page_path = source + "/docs/" + GetParam().page;
    settings_ = SettingsOfPage(Slurped(page_path));
    ASSERT_TRUE(settings_.is_object()) << page_path << " has no JSON block after " << kMarker;
  }

  std::vector<std::string> DenyRules() const {
    std::vector<std::string> rules;
    if (!settings_.contains("permissions")) return rules;
    for (const Json& rule : settings_.at("permissions").value("deny", Json::array())) {
      rules.push_back(rule.get<std::string>());
    }
    return rules;
  }

  // The page's settings as the person's own settings.json, `alias_` declared
  // as the tool list server offering `lists` of the fixture, and asked for as
  // the page's add does, with a yes at a terminal.
  void SetUpAsThePageSays(const std::vector<std::string>& lists) {
    // A copy in the test's own directory: the server is given that one file
    // to read, wherever the source tree lies and whoever may enter it.
    const std::string copy = temporary_.Join(GetParam().fixture);
    std::filesystem::copy_file(fixture_path_, copy);
    std::vector<std::string> words = {"--", OurProgram("fake_servers/tool_list_server"), copy};
    words.insert(words.end(), lists.begin(), lists.end());
    Declare(alias_, words);
    std::ofstream(Profile() + "/settings.json") << settings_.dump(2) << "\n";
    CommandOutput enabled = RunAtTerminalStepByStep(
        {OurProgram("bravebot-mcp"), "enable", alias_, "-s", "user"}, Environment(), Checkout(),
        {{"Use this MCP server? [y/N] ", "y\n"}});
    ASSERT_EQ(enabled.status, 0) << enabled.out;
  }

  // Opens a session, starts the server, says yes to its list, and calls each
  // tool of the fixture's `lists` without answering: a writing one must be
  // refused by a deny rule, any other put to the person.
  void ExpectEachToolDecided(const std::vector<std::string>& lists) {
    auto session = Session();
    Json opened = OpenAndApprove(*session);
    EXPECT_THAT(opened.dump(), Not(HasSubstr("decide nothing")));
    Json started = StartAndOffer(*session, alias_);
    ASSERT_TRUE(started.contains("result")) << started.dump();
    size_t served = 0;
    for (const std::string& list : lists) served += fixture_[list].size();
    EXPECT_THAT(started["result"].value("offer", ""),
                HasSubstr(alias_ + " offers " + std::to_string(served) + " tools"));
    int writing = 0;
    int reading = 0;
    for (const std::string& list : lists) {
      for (const Json& tool : fixture_[list]) {
        const std::string name = tool["name"].get<std::string>();
        Json call = session->Call(
            "tool/call",
            {{"alias", alias_}, {"tool", name}, {"arguments", Json::object()}})["result"];
        if (tool["writes"] == true) {
          ++writing;
          EXPECT_EQ(call["state"], "refused") << name << ": " << call.dump();
          EXPECT_THAT(call.value("text", ""), HasSubstr("a deny rule in the settings file covers " +
                                                        alias_ + ":" + name + ". "))
              << call.dump();
        } else {
          ++reading;
          EXPECT_EQ(call["state"], "ask") << name << ": " << call.dump();
        }
      }
    }
    EXPECT_GT(writing, 0);
    EXPECT_GT(reading, 0);
    session->Call("session/close");
  }

  std::string fixture_path_;
  Json fixture_;
  std::string alias_;
  Json settings_;
};

TEST_P(ConnectingPageTest, EveryRuleDeniesOneToolOfTheFixtureThatWrites) {
  std::set<std::string> writing;
  std::set<std::string> named;
  for (const char* list : {"tools", GetParam().later}) {
    for (const Json& tool : fixture_[list]) {
      named.insert(tool["name"].get<std::string>());
      if (tool["writes"] == true) writing.insert(tool["name"].get<std::string>());
    }
  }
  std::set<std::string> denied;
  for (const std::string& rule : DenyRules()) {
    const std::string prefix = "Mcp(" + alias_ + ":";
    ASSERT_TRUE(rule.starts_with(prefix) && rule.ends_with(")")) << rule;
    const std::string tool = rule.substr(prefix.size(), rule.size() - prefix.size() - 1);
    EXPECT_TRUE(named.contains(tool)) << rule << " names no tool of " << GetParam().fixture;
    EXPECT_TRUE(denied.insert(tool).second) << rule << " is given twice";
  }
  // Listed whole: the writing tools of the later list too, which no session
  // below is offered by the pinned list alone.
  EXPECT_EQ(denied, writing);
}

TEST_P(ConnectingPageTest, ThePinnedListsWritingToolsAreDeniedAndTheRestAsked) {
  SetUpAsThePageSays({"tools"});
  ExpectEachToolDecided({"tools"});
}

// The remote GitHub endpoint's extra tools, or the tools Google documented
// after the pinned list, offered beside it.
TEST_P(ConnectingPageTest, TheLaterToolsAreDecidedAsWell) {
  SetUpAsThePageSays({"tools", GetParam().later});
  ExpectEachToolDecided({"tools", GetParam().later});
}

INSTANTIATE_TEST_SUITE_P(
    Pages, ConnectingPageTest,
    ::testing::Values(Page{"connecting-gmail.md", "gmail.json", "seenLater"},
                      Page{"connecting-google-calendar.md", "google-calendar.json", "seenLater"},
                      Page{"connecting-github.md", "github.json", "remoteOnly"}),
    [](const ::testing::TestParamInfo<Page>& page) {
      std::string name = page.param.fixture;
      name = name.substr(0, name.find('.'));
      for (char& c : name) {
        if (c == '-') c = '_';
      }
      return name;
    });

}  // namespace
}  // namespace bravebot::testing
