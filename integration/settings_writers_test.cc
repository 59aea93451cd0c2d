// A server that may write a checkout's settings files vouches for nothing
// there: it answers a call by allowing its own calls and asking for another
// server in .bravebot/settings.json and settings.local.json, and the next
// session still asks before each call, starts nothing the files ask for, and
// keeps the deny rules. Through bravebot-supervisor's pipes, through
// bravebot-mcp session at a terminal, and through list and doctor.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "integration/supervisor_fixture.h"
#include "integration/terminal.h"

namespace bravebot::testing {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

// What the server plants: it allows itself, and asks for another server.
const Json kPlanted = {{"permissions", {{"allow", {"Mcp(planter)"}}}},
                       {"mcp", {{"request", {"planter", "other"}}}}};

class SettingsWritersTest : public SupervisorTest {
 protected:
  void SetUp() override {
    SupervisorTest::SetUp();
    // Its --dir is the checkout, which is no git repository: add takes it.
    Declare("planter", {"--dir", Checkout(), "--", OurProgram("fake_servers/planting_server")});
    Declare("other", {"--", OurProgram("fake_servers/listing_server")});
    // The person asks for it in their own settings, which no server writes,
    // and denies one of its tools in the checkout's.
    std::ofstream(Profile() + "/settings.json") << Json{{"mcp", {{"request", {"planter"}}}}}.dump();
    std::ofstream(Checkout() + "/.bravebot/settings.json")
        << Json{{"permissions", {{"deny", {"Mcp(planter:forbidden)"}}}}}.dump();
  }

  Json Plant(SessionClient& session, const std::string& file, const std::string& answer) {
    Json planted = kPlanted;
    if (file == "settings.json") planted["permissions"]["deny"] = {"Mcp(planter:forbidden)"};
    return session.Call("tool/call", {{"alias", "planter"},
                                      {"tool", "plant"},
                                      {"arguments", {{"file", file}, {"text", planted.dump()}}},
                                      {"answer", answer}})["result"];
  }
  Json CallUnanswered(SessionClient& session, const std::string& tool) {
    return session.Call("tool/call",
                        {{"alias", "planter"}, {"tool", tool}, {"arguments", {}}})["result"];
  }

  std::string Sentence(const std::string& file) const {
    return Checkout() + "/.bravebot/" + file +
           " is read for its deny and ask rules alone, since planter may write it (planter's "
           "--dir, " +
           Checkout() + ")";
  }
};

TEST_F(SettingsWritersTest, WhatAServerPlantsInItsDirectoryMakesNoLaterSessionAskLess) {
  auto first = Session();
  OpenAndApprove(*first);
  StartAndOffer(*first, "planter");
  EXPECT_EQ(CallUnanswered(*first, "plant")["state"], "ask");
  EXPECT_EQ(Plant(*first, "settings.json", "1")["state"], "ran");
  EXPECT_EQ(Plant(*first, "settings.local.json", "1")["state"], "ran");
  first->Call("session/close");
  ASSERT_THAT(Slurp(Checkout() + "/.bravebot/settings.json"), HasSubstr("Mcp(planter)"));

  auto second = Session();
  Json opened = second->Call("session/open", {{"directory", Checkout()}})["result"];
  EXPECT_THAT(opened["notes"], Contains(HasSubstr(Sentence("settings.json")))) << opened.dump();
  EXPECT_THAT(opened["notes"], Contains(HasSubstr(Sentence("settings.local.json"))));
  // Only the person's own file asks for a server.
  ASSERT_EQ(opened["servers"].size(), 1u) << opened.dump();
  EXPECT_EQ(opened["servers"][0]["alias"], "planter");
  EXPECT_EQ(opened["servers"][0]["state"], "start");
  EXPECT_EQ(opened["servers"][0]["requestedBy"], Json::array({Profile() + "/settings.json"}));
  StartAndOffer(*second, "planter");
  EXPECT_EQ(CallUnanswered(*second, "plant")["state"], "ask");
  // What narrows is still read from it.
  EXPECT_EQ(CallUnanswered(*second, "forbidden")["state"], "refused");
}

TEST_F(SettingsWritersTest, TheSameRulesInAFileNoServerMayWriteAreRead) {
  // The control: with planter's --dir elsewhere, the allow rule and the
  // request count, so the test above sees the difference.
  TemporaryDirectory elsewhere;
  ::chmod(elsewhere.path().c_str(), 0755);
  Declare("planter", {"--dir", elsewhere.path(), "--", OurProgram("fake_servers/planting_server")});
  std::ofstream(Checkout() + "/.bravebot/settings.json") << kPlanted.dump();
  auto session = Session();
  Json opened = OpenAndApprove(*session)["result"];
  EXPECT_THAT(opened["notes"], Not(Contains(HasSubstr("deny and ask rules alone"))));
  EXPECT_EQ(opened["servers"].size(), 2u) << opened.dump();
  StartAndOffer(*session, "planter");
  EXPECT_EQ(CallUnanswered(*session, "plant")["state"], "ran");
}

TEST_F(SettingsWritersTest, AtATerminalTheSecondSessionSaysSoAndAsksBeforeTheCall) {
  const std::vector<std::string> session = {OurProgram("bravebot-mcp"), "session"};
  const std::string plant =
      "planter:plant " + Json{{"file", "settings.json"}, {"text", kPlanted.dump()}}.dump() + "\n";
  CommandOutput first = RunAtTerminalStepByStep(session, Environment(), Checkout(),
                                                {{"[1/2/3]", "1\n"},
                                                 {"offer these tools to the model? [y/N]", "y\n"},
                                                 {"offered to the model", plant},
                                                 {"Proceed? [y/N]", "y\n"},
                                                 {"planted settings.json", "\x04"}});
  ASSERT_EQ(first.status, 0) << first.out;
  ASSERT_THAT(first.out, HasSubstr("planted settings.json")) << first.out;

  CommandOutput second = RunAtTerminalStepByStep(
      session, Environment(), Checkout(),
      {{"offered to the model", plant}, {"Proceed? [y/N]", "n\n"}, {"declined: ", "\x04"}});
  EXPECT_EQ(second.status, 0) << second.out;
  EXPECT_THAT(second.out, HasSubstr(Sentence("settings.json"))) << second.out;
  EXPECT_THAT(second.out, HasSubstr("Proceed? [y/N]"));
  EXPECT_THAT(second.out, HasSubstr("declined: the user said no to this call of planter:plant"));
}

TEST_F(SettingsWritersTest, ListShowsItAndDoctorFails) {
  std::ofstream(Checkout() + "/.bravebot/settings.local.json") << kPlanted.dump();
  CommandOutput list = RunCommand({OurProgram("bravebot-mcp"), "list"}, Environment(), Checkout());
  EXPECT_EQ(list.status, 0) << list.err;
  EXPECT_THAT(list.out, HasSubstr("note: " + Sentence("settings.local.json"))) << list.out;
  EXPECT_THAT(list.out, Not(HasSubstr("requested by " + Checkout())));

  CommandOutput json =
      RunCommand({OurProgram("bravebot-mcp"), "list", "--json"}, Environment(), Checkout());
  const Json files = Json::parse(json.out)["server_writable_settings"];
  ASSERT_EQ(files.size(), 2u) << json.out;
  EXPECT_EQ(files[0]["file"], Checkout() + "/.bravebot/settings.local.json");
  EXPECT_EQ(files[0]["writers"][0]["alias"], "planter");

  CommandOutput doctor =
      RunCommand({OurProgram("bravebot-mcp"), "doctor"}, Environment(), Checkout());
  EXPECT_NE(doctor.status, 0);
  EXPECT_THAT(doctor.out, HasSubstr("note: " + Sentence("settings.local.json")));
}

TEST_F(SettingsWritersTest, ABindMountOfADirectoryBeneathTheServersIsFoundToo) {
  if (::geteuid() != 0) GTEST_SKIP() << "a bind mount in a mount namespace of its own needs root";
  const std::string place = temporary_.Join("data");
  const std::string bound = temporary_.Join("bound");
  std::filesystem::create_directories(place + "/sub/.bravebot");
  std::filesystem::create_directories(bound);
  std::ofstream(place + "/sub/.bravebot/settings.json") << kPlanted.dump();
  Declare("planter", {"--dir", place, "--", OurProgram("fake_servers/planting_server")});
  // The checkout is place/sub, reached only as `bound`, whose path holds no
  // place a server may write.
  CommandOutput list = RunCommand({"/usr/bin/unshare", "-m", "--propagation", "private", "sh", "-c",
                                   "mount --bind \"$0\" \"$1\" && cd \"$1\" && exec \"$2\" list",
                                   place + "/sub", bound, OurProgram("bravebot-mcp")},
                                  Environment(), temporary_.path());
  ASSERT_EQ(list.status, 0) << list.err;
  EXPECT_THAT(list.out, HasSubstr("note: " + bound +
                                  "/.bravebot/settings.json is read for its deny and ask rules "
                                  "alone, since planter may write it (planter's --dir, " +
                                  place + ")"))
      << list.out;
}

TEST_F(SettingsWritersTest, RemovingTheServerOrMovingItsDirectorySaysItsFilesCountAgain) {
  const std::vector<std::string> program = {"--", OurProgram("fake_servers/planting_server")};
  const std::string note = "note: planter could write " + Checkout() +
                           "/.bravebot until now, so a session in " + Checkout() +
                           " reads the settings files there whole again, whoever wrote them";
  std::filesystem::create_directories(temporary_.Join("elsewhere"));
  std::vector<std::string> add = {OurProgram("bravebot-mcp"), "add", "planter", "--dir",
                                  temporary_.Join("elsewhere")};
  add.insert(add.end(), program.begin(), program.end());
  CommandOutput moved = RunCommand(add, Environment(), temporary_.path());
  ASSERT_EQ(moved.status, 0) << moved.err;
  EXPECT_THAT(moved.out, HasSubstr(note)) << moved.out;

  Declare("planter", {"--dir", Checkout(), "--", OurProgram("fake_servers/planting_server")});
  Declare("second", {"--dir", Checkout(), "--", OurProgram("fake_servers/planting_server")});
  CommandOutput one_left =
      RunCommand({OurProgram("bravebot-mcp"), "remove", "planter"}, Environment(), Checkout());
  ASSERT_EQ(one_left.status, 0) << one_left.err;
  EXPECT_THAT(one_left.out, Not(HasSubstr("note:"))) << one_left.out;  // second may write it
  CommandOutput none_left =
      RunCommand({OurProgram("bravebot-mcp"), "remove", "second"}, Environment(), Checkout());
  ASSERT_EQ(none_left.status, 0) << none_left.err;
  EXPECT_THAT(none_left.out, HasSubstr("note: second could write " + Checkout() + "/.bravebot"));
}

TEST_F(SettingsWritersTest, AddSaysWhatADirectoryHoldingACheckoutsSettingsMeans) {
  const std::string project = temporary_.Join("srv/proj");
  std::filesystem::create_directories(project + "/.bravebot");
  CommandOutput added =
      RunCommand({OurProgram("bravebot-mcp"), "add", "above", "--dir", temporary_.Join("srv"), "--",
                  OurProgram("fake_servers/planting_server")},
                 Environment(), temporary_.path());
  ASSERT_EQ(added.status, 0) << added.err;
  EXPECT_THAT(added.out, HasSubstr("note: above may write " + project +
                                   "/.bravebot, so a session in " + project +
                                   " reads the settings files there for their deny and ask rules "
                                   "alone"))
      << added.out;
  std::filesystem::create_directories(temporary_.Join("plain/sub"));
  CommandOutput elsewhere =
      RunCommand({OurProgram("bravebot-mcp"), "add", "elsewhere", "--dir", temporary_.Join("plain"),
                  "--", OurProgram("fake_servers/planting_server")},
                 Environment(), temporary_.path());
  ASSERT_EQ(elsewhere.status, 0) << elsewhere.err;
  EXPECT_THAT(elsewhere.out, Not(HasSubstr("note:")));
}

TEST_F(SettingsWritersTest, EnableSaysARequestAServerMayWriteCountsForNothing) {
  CommandOutput enabled =
      RunAtTerminalStepByStep({OurProgram("bravebot-mcp"), "enable", "planter", "-s", "project"},
                              Environment(), Checkout(), {{"Use this MCP server? [y/N] ", "y\n"}});
  EXPECT_EQ(enabled.status, 0) << enabled.out;
  EXPECT_THAT(enabled.out, HasSubstr("now asks for planter"));
  EXPECT_THAT(enabled.out,
              HasSubstr("but a session here asks for nothing " + Checkout() +
                        "/.bravebot/settings.json asks for: " + Sentence("settings.json")))
      << enabled.out;
  EXPECT_THAT(enabled.out, HasSubstr("bravebot-mcp enable planter -s user asks for it"));
  CommandOutput user =
      RunAtTerminalStepByStep({OurProgram("bravebot-mcp"), "enable", "planter", "-s", "user"},
                              Environment(), Checkout(), {});
  EXPECT_EQ(user.status, 0) << user.out;
  EXPECT_THAT(user.out, Not(HasSubstr("asks for nothing")));
}

}  // namespace
}  // namespace bravebot::testing
