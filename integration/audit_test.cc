// bravebot-mcp audit: each declaration, what holds across them, the homes
// and --prune, --probe, and --json against docs/audit.schema.json.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "integration/peers.h"
#include "integration/profile_fixture.h"
#include "integration/terminal.h"

namespace bravebot::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using Json = nlohmann::json;

class AuditTest : public ProfileTest {
 protected:
  void SetUp() override {
    shared_ = temporary_.Join("shared");
    checkout_ = temporary_.Join("checkout");
    std::filesystem::create_directories(shared_);
    std::filesystem::create_directories(checkout_);
    std::ofstream(shared_ + "/notes") << "notes";
  }

  // The checkout this test is built from, or its copy staged where an
  // unprivileged user can read it (scripts/test-as-user.sh).
  static std::string Source() {
    const char* staged = std::getenv("BRAVEBOT_PAGES_SOURCE");
    return staged != nullptr && *staged != '\0' ? staged : BRAVEBOT_SOURCE_DIRECTORY;
  }

  // audit --json's output, checked against its schema.
  Json AuditJson(std::vector<std::string> words = {}) {
    words.insert(words.begin(), {"audit", "--json"});
    CommandOutput audit = Mcp(words);
    const std::string path = temporary_.Join("audit.json");
    std::ofstream(path) << audit.out;
    CommandOutput valid = RunCommand({"/usr/bin/python3", Source() + "/scripts/validate-json.py",
                                      Source() + "/docs/audit.schema.json", path},
                                     Environment(), temporary_.path());
    EXPECT_EQ(valid.status, 0) << valid.err << audit.out;
    Json json = Json::parse(audit.out, nullptr, false);
    EXPECT_TRUE(json.is_object()) << audit.out << audit.err;
    EXPECT_EQ(json["act"], audit.status == 1) << audit.out;
    return json;
  }

  static std::vector<Json> FindingsOf(const Json& audit, const std::string& kind) {
    std::vector<Json> found;
    for (const Json& finding : audit["findings"]) {
      if (finding["kind"] == kind) found.push_back(finding);
    }
    return found;
  }

  std::string shared_;
  std::string checkout_;
};

TEST_F(AuditTest, ShowsEachServerAndExitsZeroWithNothingToActOn) {
  ASSERT_EQ(Mcp({"add", "cat", "--", "/bin/cat"}).status, 0);
  ASSERT_EQ(Mcp({"add", "docs", "--http", "https://mcp.example.com/mcp"}).status, 0);
  CommandOutput audit = Mcp({"audit"});
  EXPECT_EQ(audit.status, 0) << audit.out << audit.err;
  EXPECT_THAT(audit.out, HasSubstr("  cat   stdio   /bin/cat\n"));
  EXPECT_THAT(audit.out, HasSubstr("  docs   http   https://mcp.example.com/mcp\n"));
  EXPECT_THAT(audit.out, HasSubstr(", not approved, no tool list approved yet\n"));
  EXPECT_THAT(audit.out, HasSubstr("    asked for in none of the checkouts audited\n"));
  EXPECT_THAT(audit.out, HasSubstr("/mcp-home/"));
  EXPECT_THAT(audit.out, HasSubstr("  its private home\n"));
  // What every server has is left out: no /etc, no /usr.
  EXPECT_THAT(audit.out, Not(HasSubstr("system configuration")));
  EXPECT_THAT(audit.out, Not(HasSubstr("/usr ")));
  EXPECT_THAT(audit.out, Not(HasSubstr("\n  ! ")));
  Json json = AuditJson();
  ASSERT_EQ(json["servers"].size(), 2U);
  EXPECT_EQ(json["servers"][0]["alias"], "cat");
  EXPECT_EQ(json["servers"][0]["runs"], "/bin/cat");
  EXPECT_EQ(json["servers"][1]["transport"], "http");
  EXPECT_EQ(json["act"], false);
}

TEST_F(AuditTest, ApprovalAndTheCheckoutsThatAskForAServer) {
  ASSERT_EQ(Mcp({"add", "cat", "--", "/bin/cat"}).status, 0);
  std::filesystem::create_directories(checkout_ + "/.bravebot");
  std::ofstream(checkout_ + "/.bravebot/settings.json") << R"({"mcp":{"request":["cat"]}})";
  const std::string digest = AuditJson()["servers"][0]["digest"];
  std::ofstream(Profile() + "/mcp-approved")
      << "# bravebot-mcp approvals, format 1\nserver " << digest << " cat\ntools " << digest << " "
      << std::string(64, 'b') << "\n";
  CommandOutput audit = Mcp({"audit", checkout_, temporary_.path()});
  EXPECT_EQ(audit.status, 0) << audit.out << audit.err;
  EXPECT_THAT(audit.out,
              HasSubstr("for sessions started in " + checkout_ + ", " + temporary_.path() + "\n"));
  EXPECT_THAT(audit.out, HasSubstr(", approved, its tool list approved\n"));
  EXPECT_THAT(audit.out, HasSubstr("    asked for in " + checkout_ + " by " + checkout_ +
                                   "/.bravebot/settings.json\n"));
  Json json = AuditJson({checkout_});
  EXPECT_EQ(json["servers"][0]["approved"], true);
  EXPECT_EQ(json["servers"][0]["tool_list_approved"], true);
  EXPECT_EQ(json["servers"][0]["requested_in"][0]["checkout"], checkout_);
}

TEST_F(AuditTest, AServerThatMayWriteWhatAnotherReadsIsOneToActOn) {
  ASSERT_EQ(Mcp({"add", "writer", "--dir", shared_, "--", "/bin/cat"}).status, 0);
  ASSERT_EQ(Mcp({"add", "reader", "-e", "NOTES=" + shared_ + "/notes", "--", "/bin/cat"}).status,
            0);
  CommandOutput audit = Mcp({"audit"});
  EXPECT_EQ(audit.status, 1) << audit.out << audit.err;
  EXPECT_THAT(audit.out, HasSubstr("  ! reader and writer may both reach " + shared_ +
                                   "/notes, and writer may write it: what one server writes "
                                   "there, the other reads; give each a directory of its own\n"));
  Json json = AuditJson();
  std::vector<Json> shared = FindingsOf(json, "shared-write");
  ASSERT_EQ(shared.size(), 1U) << json.dump(2);
  EXPECT_EQ(shared[0]["act"], true);
  EXPECT_EQ(shared[0]["path"], shared_ + "/notes");
  EXPECT_EQ(shared[0]["aliases"], Json({"reader", "writer"}));
  EXPECT_EQ(json["servers"][0]["files_named"], Json({shared_ + "/notes"}));
}

TEST_F(AuditTest, TwoServersReadingOneFileIsSaidNotActedOn) {
  ASSERT_EQ(Mcp({"add", "one", "-e", "NOTES=" + shared_ + "/notes", "--", "/bin/cat"}).status, 0);
  ASSERT_EQ(Mcp({"add", "two", "-e", "NOTES=" + shared_ + "/notes", "--", "/bin/cat", "-u"}).status,
            0);
  // The same declaration under another alias: the same home, said once.
  ASSERT_EQ(Mcp({"add", "again", "-e", "NOTES=" + shared_ + "/notes", "--", "/bin/cat"}).status, 0);
  CommandOutput audit = Mcp({"audit"});
  EXPECT_EQ(audit.status, 0) << audit.out << audit.err;
  EXPECT_THAT(audit.out, HasSubstr("  - one and two may both read " + shared_ + "/notes\n"));
  EXPECT_THAT(audit.out, HasSubstr("  - again and one are one declaration under two aliases, so "
                                   "they share one home: bravebot-mcp remove one of them\n"));
  EXPECT_EQ(FindingsOf(AuditJson(), "same-declaration").size(), 1U);
}

// A program, or a PATH entry, where a server may write: that server can
// change what the other runs before its next start.
TEST_F(AuditTest, AProgramOrAPathEntryWhereAServerMayWriteIsOneToActOn) {
  const std::string tool = shared_ + "/tool";
  std::ofstream(tool) << "#!/bin/sh\nexec cat\n";
  ::chmod(tool.c_str(), 0755);
  ASSERT_EQ(Mcp({"add", "writer", "--dir", shared_, "--", "/bin/cat"}).status, 0);
  ASSERT_EQ(Mcp({"add", "direct", "--", tool}).status, 0);
  ASSERT_EQ(Mcp({"add", "found", "-e", "PATH=" + shared_ + ":/usr/bin:/bin", "--", "tool"}).status,
            0);
  CommandOutput audit = Mcp({"audit"});
  EXPECT_EQ(audit.status, 1) << audit.out << audit.err;
  EXPECT_THAT(audit.out, HasSubstr("  ! direct runs " + tool +
                                   ", which writer may write: what it runs can be changed before "
                                   "its next start; install the program where no server may "
                                   "write\n"));
  EXPECT_THAT(audit.out, HasSubstr("  ! found finds programs through the PATH entry " + shared_ +
                                   ", which writer may write"));
  Json json = AuditJson();
  EXPECT_EQ(FindingsOf(json, "program-writable").size(), 3U) << json.dump(2);
}

TEST_F(AuditTest, ASettingsFileAServerMayWriteIsOneToActOn) {
  ASSERT_EQ(Mcp({"add", "writer", "--dir", checkout_, "--", "/bin/cat"}).status, 0);
  std::filesystem::create_directories(checkout_ + "/.bravebot");
  std::ofstream(checkout_ + "/.bravebot/settings.json") << R"({"mcp":{"request":["writer"]}})";
  CommandOutput audit = Mcp({"audit", checkout_});
  EXPECT_EQ(audit.status, 1) << audit.out << audit.err;
  EXPECT_THAT(audit.out, HasSubstr("  ! " + checkout_ +
                                   "/.bravebot/settings.json is read for its deny and ask rules "
                                   "alone, since writer may write it"));
  std::vector<Json> writable = FindingsOf(AuditJson({checkout_}), "settings-writable");
  ASSERT_EQ(writable.size(), 1U);
  EXPECT_EQ(writable[0]["path"], checkout_ + "/.bravebot/settings.json");
}

TEST_F(AuditTest, AServerThatCannotStartAsDeclaredIsOneToActOn) {
  const std::string gone = shared_ + "/gone";
  std::ofstream(gone) << "#!/bin/sh\n";
  ::chmod(gone.c_str(), 0755);
  ASSERT_EQ(Mcp({"add", "gone", "--", gone}).status, 0);
  std::filesystem::remove(gone);
  CommandOutput audit = Mcp({"audit"});
  EXPECT_EQ(audit.status, 1) << audit.out << audit.err;
  EXPECT_THAT(audit.out, HasSubstr("  ! gone cannot start as declared: "));
  EXPECT_THAT(audit.out, HasSubstr("    its reach could not be computed: "));
  Json json = AuditJson();
  EXPECT_TRUE(json["servers"][0]["not_computed"].is_string());
}

// Homes with their size, those no declaration uses said, and --prune
// removing those alone (no terminal here, so it asks nothing).
TEST_F(AuditTest, HomesAndPrune) {
  ASSERT_EQ(Mcp({"add", "cat", "--", "/bin/cat"}).status, 0);
  const std::string digest = AuditJson()["servers"][0]["digest"];
  const std::string homes = Profile() + "/mcp-home";
  std::filesystem::create_directories(homes + "/" + digest);
  const std::string old_home = homes + "/" + std::string(64, 'a');
  std::filesystem::create_directories(old_home + "/cache");
  std::ofstream(old_home + "/cache/blob") << std::string(std::size_t{40} * 1024, 'x');
  std::filesystem::create_symlink("/etc", old_home + "/a-link");

  CommandOutput audit = Mcp({"audit"});
  EXPECT_EQ(audit.status, 0) << audit.out << audit.err;
  EXPECT_THAT(audit.out, HasSubstr("  homes under mcp-home:\n"));
  EXPECT_THAT(audit.out, HasSubstr("    aaaaaaaaaaaa  "));
  EXPECT_THAT(audit.out, HasSubstr(" KiB  used by no declaration\n"));
  EXPECT_THAT(audit.out, HasSubstr("  the home of cat\n"));
  EXPECT_THAT(audit.out, HasSubstr("  - no declaration uses the home " + old_home));
  Json json = AuditJson();
  ASSERT_EQ(json["homes"].size(), 2U);
  // Its 40 KiB counted, and not /etc through the link.
  EXPECT_GE(json["homes"][1]["bytes_on_disk"].get<std::uint64_t>(), 40U * 1024);
  EXPECT_LT(json["homes"][1]["bytes_on_disk"].get<std::uint64_t>(), 1024U * 1024);
  EXPECT_EQ(FindingsOf(json, "unused-home").size(), 1U);

  // Nobody at a terminal to ask: nothing goes without --yes.
  CommandOutput unasked = Mcp({"audit", "--prune"});
  EXPECT_EQ(unasked.status, 1);
  EXPECT_THAT(unasked.err, HasSubstr("nothing was removed: with nobody at a terminal to ask, "
                                     "audit --prune removes only with --yes\n"));
  EXPECT_TRUE(std::filesystem::exists(old_home));

  CommandOutput pruned = Mcp({"audit", "--prune", "--yes"});
  EXPECT_EQ(pruned.status, 0) << pruned.out << pruned.err;
  EXPECT_THAT(pruned.out, HasSubstr("homes no declaration uses:\n  " + old_home + "  "));
  EXPECT_THAT(pruned.out, HasSubstr("removed " + old_home + "\n"));
  EXPECT_FALSE(std::filesystem::exists(old_home));
  EXPECT_TRUE(std::filesystem::is_directory(homes + "/" + digest));
  EXPECT_TRUE(std::filesystem::exists("/etc/passwd"));
  EXPECT_THAT(Mcp({"audit", "--prune", "--yes"}).out,
              HasSubstr("no home to prune: every one under mcp-home is a declaration's\n"));
}

// At a terminal, --prune asks before it removes: a no keeps the home.
TEST_F(AuditTest, PruneAsksAtATerminal) {
  const std::string old_home = Profile() + "/mcp-home/" + std::string(64, 'c');
  std::filesystem::create_directories(old_home);
  const std::vector<std::string> prune = {OurProgram("bravebot-mcp"), "audit", "--prune"};
  CommandOutput kept = RunAtTerminalStepByStep(prune, Environment(), temporary_.path(),
                                               {{"Remove it? [y/N] ", "n\n"}});
  EXPECT_THAT(kept.out, HasSubstr("nothing was removed"));
  EXPECT_TRUE(std::filesystem::exists(old_home));
  CommandOutput removed = RunAtTerminalStepByStep(prune, Environment(), temporary_.path(),
                                                  {{"Remove it? [y/N] ", "y\n"}});
  EXPECT_THAT(removed.out, HasSubstr("removed " + old_home));
  EXPECT_FALSE(std::filesystem::exists(old_home));
}

// A file of many names counted once; a tree deeper than the count goes
// said as "at least".
TEST_F(AuditTest, AHomesSizeIsNotMadeToLie) {
  const std::string home = Profile() + "/mcp-home/" + std::string(64, 'd');
  std::filesystem::create_directories(home);
  std::ofstream(home + "/blob") << std::string(std::size_t{1024} * 1024, 'x');
  for (int i = 0; i < 50; ++i) {
    std::filesystem::create_hard_link(home + "/blob", home + "/name" + std::to_string(i));
  }
  Json json = AuditJson();
  ASSERT_EQ(json["homes"].size(), 1U);
  EXPECT_LT(json["homes"][0]["bytes_on_disk"].get<std::uint64_t>(), 2U * 1024 * 1024);
  EXPECT_EQ(json["homes"][0]["counted_whole"], true);
  std::string deep = home + "/deep";
  for (int level = 0; level < 70; ++level) deep += "/d";
  std::filesystem::create_directories(deep);
  json = AuditJson();
  EXPECT_EQ(json["homes"][0]["counted_whole"], false);
  EXPECT_THAT(Mcp({"audit"}).out, HasSubstr("  at least "));
}

// A link planted in the place of a file another server was shown: the
// reach refuses it, and audit says so, and that the writer may write it.
TEST_F(AuditTest, ALinkPlantedWhereAServerMayWriteIsOneToActOn) {
  ASSERT_EQ(Mcp({"add", "writer", "--dir", shared_, "--", "/bin/cat"}).status, 0);
  ASSERT_EQ(Mcp({"add", "reader", "-e", "NOTES=" + shared_ + "/notes", "--", "/bin/cat"}).status,
            0);
  std::filesystem::remove(shared_ + "/notes");
  std::filesystem::create_symlink("/etc/hostname", shared_ + "/notes");
  CommandOutput audit = Mcp({"audit"});
  EXPECT_EQ(audit.status, 1) << audit.out << audit.err;
  EXPECT_THAT(audit.out, HasSubstr("    a stored value names the file " + shared_ + "/notes\n"));
  EXPECT_THAT(audit.out, HasSubstr("  ! reader is not given " + shared_ +
                                   "/notes: it leads through the link " + shared_ + "/notes"));
  EXPECT_THAT(audit.out, HasSubstr("  ! reader and writer may both reach " + shared_ + "/notes"));
}

// A program reached through a link into a directory a server may write.
TEST_F(AuditTest, AProgramThroughALinkIntoAWritableDirectoryIsOneToActOn) {
  const std::string tool = shared_ + "/tool";
  std::ofstream(tool) << "#!/bin/sh\nexec cat\n";
  ::chmod(tool.c_str(), 0755);
  const std::string elsewhere = temporary_.Join("elsewhere");
  std::filesystem::create_directories(elsewhere);
  std::filesystem::create_directory_symlink(shared_, elsewhere + "/linked");
  ASSERT_EQ(Mcp({"add", "writer", "--dir", shared_, "--", "/bin/cat"}).status, 0);
  ASSERT_EQ(Mcp({"add", "linked", "--", elsewhere + "/linked/tool"}).status, 0);
  CommandOutput audit = Mcp({"audit"});
  EXPECT_EQ(audit.status, 1) << audit.out << audit.err;
  EXPECT_THAT(audit.out, HasSubstr(", which writer may write: what it runs can be changed"));
}

// Two declarations alike but for a stored value have one digest, so one
// home: both write it, which is one to act on.
TEST_F(AuditTest, TwoDeclarationsOfOneDigestShareAHomeToActOn) {
  ASSERT_EQ(Mcp({"add", "one", "-e", "KEY=first", "--", "/bin/cat"}).status, 0);
  ASSERT_EQ(Mcp({"add", "two", "-e", "KEY=second", "--", "/bin/cat"}).status, 0);
  CommandOutput audit = Mcp({"audit"});
  EXPECT_EQ(audit.status, 1) << audit.out << audit.err;
  EXPECT_THAT(audit.out, HasSubstr("  ! one and two may both reach "));
  EXPECT_THAT(audit.out, HasSubstr("/mcp-home/"));
  EXPECT_THAT(audit.out, Not(HasSubstr("first")));
  EXPECT_THAT(audit.out, Not(HasSubstr("second")));
}

// Where nothing can confine a server, none is started: one to act on.
TEST_F(AuditTest, NoBackendHereIsOneToActOn) {
  ASSERT_EQ(Mcp({"add", "cat", "--", "/bin/cat"}).status, 0);
  std::vector<std::string> environment = Environment();
  environment.push_back("BRAVEBOT_BACKEND=nonsense");
  CommandOutput audit =
      RunCommand({OurProgram("bravebot-mcp"), "audit"}, environment, temporary_.path());
  EXPECT_EQ(audit.status, 1) << audit.out << audit.err;
  EXPECT_THAT(audit.out, HasSubstr("  ! cat is not started here: "));
  EXPECT_THAT(audit.out, Not(HasSubstr("this machine does not keep")));
}

// A profile of real servers from npm: the filesystem server given a
// directory, and the memory server keeping its file there. What holds across
// them is found, each is probed under its confinement, and the JSON holds
// to its schema.
TEST_F(AuditTest, OnAProfileOfRealServers) {
  SKIP_WITHOUT_PEERS();
  const std::string path = "PATH=" + PeersDirectory() + "/bin:/usr/bin:/bin";
  std::ofstream(shared_ + "/memory.json") << "";
  ASSERT_EQ(
      Mcp({"add", "files", "-e", path, "--dir", shared_, "--", "mcp-server-filesystem", shared_})
          .status,
      0);
  ASSERT_EQ(Mcp({"add", "memory", "-e", path, "MEMORY_FILE_PATH=" + shared_ + "/memory.json", "--",
                 "mcp-server-memory"})
                .status,
            0);
  ASSERT_EQ(Mcp({"add", "everything", "-e", path, "--", "mcp-server-everything"}).status, 0);
  CommandOutput audit = Mcp({"audit", "--probe"});
  EXPECT_EQ(audit.status, 1) << audit.out << audit.err;
  EXPECT_THAT(audit.out, HasSubstr("  files   stdio   "));
  EXPECT_THAT(audit.out, HasSubstr("  ! files and memory may both reach " + shared_ +
                                   "/memory.json, and files may write it"));
  EXPECT_THAT(audit.out, HasSubstr("every attempt came out as the reach says\n"));
  EXPECT_THAT(audit.out, Not(HasSubstr("probe-failed")));
  Json json = AuditJson({"--probe"});
  ASSERT_EQ(json["servers"].size(), 3U);
  for (const Json& server : json["servers"]) {
    EXPECT_TRUE(server["probe"].is_object()) << server["alias"];
    EXPECT_TRUE(server["not_computed"].is_null()) << server["alias"];
  }
  EXPECT_TRUE(FindingsOf(json, "probe-failed").empty());
  EXPECT_TRUE(FindingsOf(json, "probe-contradicts").empty());
}

TEST_F(AuditTest, ProbeRunsEachServersProbes) {
  ASSERT_EQ(Mcp({"add", "cat", "--", "/bin/cat"}).status, 0);
  CommandOutput audit = Mcp({"audit", "--probe"});
  EXPECT_EQ(audit.status, 0) << audit.out << audit.err;
  EXPECT_THAT(audit.out, HasSubstr("every attempt came out as the reach says\n"));
  Json json = AuditJson({"--probe"});
  EXPECT_TRUE(json["servers"][0]["probe"].is_object()) << json.dump(2);
}

TEST_F(AuditTest, RefusesWhatIsNotACheckoutAndPruneWithJson) {
  CommandOutput missing = Mcp({"audit", temporary_.Join("nowhere")});
  EXPECT_EQ(missing.status, 2);
  EXPECT_THAT(missing.err, HasSubstr("bravebot-mcp audit: " + temporary_.Join("nowhere") +
                                     " is not a directory: audit takes the checkouts sessions "
                                     "start in\n"));
  CommandOutput both = Mcp({"audit", "--prune", "--json"});
  EXPECT_EQ(both.status, 2);
  EXPECT_THAT(both.err, HasSubstr("--prune asks and says what it removed: it takes no --json"));
  CommandOutput empty = Mcp({"audit"});
  EXPECT_EQ(empty.status, 0) << empty.err;
  EXPECT_EQ(empty.out, "nothing is declared: there is no profile directory yet\n");
}

}  // namespace
}  // namespace bravebot::testing
