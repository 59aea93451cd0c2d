// bravebot-mcp list as the spec shows it: for a session started here, who
// asks for each server, what such a session would do, and what is answered.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "integration/profile_fixture.h"

namespace bravebot::testing {
namespace {

using ::testing::HasSubstr;

class ListTest : public ProfileTest {
 protected:
  void SetUp() override {
    ASSERT_EQ(Mcp({"add", "weather", "--", "/bin/cat"}).status, 0);
    ASSERT_EQ(Mcp({"add", "docs", "--http", "https://mcp.example.com/mcp"}).status, 0);
    ASSERT_EQ(Mcp({"add", "maps", "--", "/bin/cat", "-u"}).status, 0);
    const std::string digest =
        nlohmann::json::parse(Mcp({"get", "weather", "--json"}).out)["digest"].get<std::string>();
    std::ofstream(Profile() + "/mcp-approved")
        << "# bravebot-mcp approvals, format 1\nserver " << digest << " weather\n";
    std::filesystem::create_directories(Checkout() + "/.bravebot");
    std::ofstream(Settings()) << R"({"mcp": {"request": ["docs", "weather", "ghost"]}})";
    std::ofstream(Profile() + "/mcp-tools")
        << "# bravebot-mcp tools, format 1\nweather\tget_forecast\t" << Checkout() << "\n";
  }
  std::string Checkout() const { return temporary_.path(); }
  std::string Settings() const { return Checkout() + "/.bravebot/settings.json"; }
};

TEST_F(ListTest, RowsForASessionStartedHere) {
  CommandOutput list = Mcp({"list"});
  ASSERT_EQ(list.status, 0) << list.err;
  EXPECT_THAT(list.out, HasSubstr("declared in " + DeclarationFile() +
                                  "\nfor a session started in " + Checkout() + "\n"));
  EXPECT_THAT(list.out, HasSubstr("  docs     http   unapproved  ")) << list.out;
  EXPECT_THAT(list.out, HasSubstr("requested by " + Settings() +
                                  ": a session at a terminal here asks before starting it, and "
                                  "holds a grant to call it only after a yes\n"));
  EXPECT_THAT(list.out, HasSubstr("  weather  stdio  approved    "));
  EXPECT_THAT(list.out, HasSubstr("requested by " + Settings() +
                                  ": a session here starts it unasked, and holds a grant to call "
                                  "it\n             answered here: call get_forecast without "
                                  "asking\n"));
  EXPECT_THAT(list.out, HasSubstr("             not requested here, so no session here holds a "
                                  "grant to call it\n             nothing is answered for it "
                                  "here\n"));
  EXPECT_THAT(list.out,
              HasSubstr("  ghost    not declared: requested by " + Settings() +
                        ", so nothing runs for it: bravebot-mcp add ghost declares it\n"));
}

TEST_F(ListTest, TheAdministratorsRefusalIsShownBesideTheApproval) {
  const std::string managed = temporary_.Join("managed.json");
  std::ofstream(managed) << R"({"mcp": {"allow": []}})";
  std::vector<std::string> environment = Environment();
  environment.push_back("BRAVEBOT_MANAGED_FILE=" + managed);
  std::vector<std::string> words = {OurProgram("bravebot-mcp"), "list"};
  CommandOutput list = RunCommand(words, environment, Checkout());
  ASSERT_EQ(list.status, 0) << list.err;
  EXPECT_THAT(list.out, HasSubstr("  weather  stdio  approved    "));
  EXPECT_THAT(list.out, HasSubstr("  not started: " + managed +
                                  ", which this machine's administrator manages, allows only the "
                                  "servers its mcp.allow names, and not this one\n"));
  // Asked for here or not, a refused server says so beside its approval.
  EXPECT_THAT(list.out, HasSubstr("  maps     stdio  unapproved  "));
  size_t refusals = 0;
  for (size_t at = 0; (at = list.out.find("  not started: ", at)) != std::string::npos; ++at) {
    ++refusals;
  }
  EXPECT_EQ(refusals, 3u);  // weather, docs and maps
}

TEST_F(ListTest, JsonSaysTheSame) {
  auto json = nlohmann::json::parse(Mcp({"list", "--json"}).out);
  EXPECT_EQ(json["directory"], Checkout());
  EXPECT_EQ(json["requested_not_declared"][0]["alias"], "ghost");
  std::map<std::string, nlohmann::json> servers;
  for (const auto& server : json["servers"]) servers[server["alias"]] = server;
  EXPECT_EQ(servers["weather"]["session"], "start unasked");
  EXPECT_EQ(servers["docs"]["session"], "ask");
  EXPECT_TRUE(servers["maps"]["requested_by"].empty());
}

TEST_F(ListTest, ASettingsFileThatCannotBeReadIsSaidAndFailsTheList) {
  std::ofstream(Settings()) << "{ not json";
  CommandOutput list = Mcp({"list"});
  EXPECT_EQ(list.status, 1);
  EXPECT_THAT(list.out, HasSubstr("  weather  stdio  approved"));
  EXPECT_THAT(list.err, HasSubstr(Settings()));
}

// Counts how often `part` is in `text`.
size_t Occurrences(const std::string& text, const std::string& part) {
  size_t count = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

TEST_F(ListTest, ALinkedDotBravebotIsSaidOnce) {
  std::filesystem::remove_all(Checkout() + "/.bravebot");
  std::filesystem::create_directories(temporary_.Join("elsewhere"));
  std::filesystem::create_directory_symlink(temporary_.Join("elsewhere"),
                                            Checkout() + "/.bravebot");
  for (const char* command : {"list", "doctor"}) {
    CommandOutput shown = Mcp({command});
    EXPECT_EQ(shown.status, 1) << command;
    EXPECT_EQ(Occurrences(shown.err, Checkout() + "/.bravebot is a link"), 1u)
        << command << ": " << shown.err;
  }
}

TEST_F(ListTest, AnUnusableEntryAskedForHereIsListedOnceAsUnusable) {
  nlohmann::json declarations = nlohmann::json::parse(Slurp(DeclarationFile()));
  declarations["servers"]["ghost"] = {{"transport", "stdio"}, {"program", "bin/ghost"}};
  std::ofstream(DeclarationFile()) << declarations.dump();
  CommandOutput list = Mcp({"list"});
  EXPECT_EQ(list.status, 1);
  EXPECT_THAT(list.out, HasSubstr("  ghost    cannot be used: "));
  EXPECT_THAT(list.out, ::testing::Not(HasSubstr("not declared")));
  nlohmann::json json = nlohmann::json::parse(Mcp({"list", "--json"}).out);
  EXPECT_TRUE(json["requested_not_declared"].empty()) << json.dump();
  EXPECT_EQ(json["unusable"].size(), 1u);
}

}  // namespace
}  // namespace bravebot::testing
