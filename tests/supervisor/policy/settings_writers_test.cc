#include "supervisor/policy/settings_writers.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "confine/digest.h"
#include "tests/temporary_directory.h"

namespace bravebot {
namespace {

using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::IsEmpty;
using testing::TemporaryDirectory;

class SettingsWritersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::canonical(temporary_.path()).string();
    std::filesystem::create_directories(Checkout() + "/.bravebot");
    std::filesystem::create_directories(Profile() + "/mcp-home");
  }

  std::string Checkout() const { return root_ + "/srv/proj"; }
  std::string Profile() const { return root_ + "/profile"; }

  // A stdio server declared with `directory` as its --dir ("" for none).
  void Declare(const std::string& alias, const std::string& directory) {
    Declaration declaration;
    declaration.alias = alias;
    declaration.program = "/usr/bin/true";
    declaration.directory = directory;
    declarations_.declarations.push_back(declaration);
  }

  std::vector<SettingsWriter> WritersOf(const std::string& checkout) const {
    return WritersOfCheckoutSettings(ResolveCheckoutDirectory(checkout),
                                     {&declarations_, Profile(), root_ + "/tmp"});
  }

  TemporaryDirectory temporary_;
  std::string root_;
  DeclarationFile declarations_;
};

auto Writer(const std::string& alias, const std::string& place, const std::string& what) {
  return AllOf(Field(&SettingsWriter::alias, alias), Field(&SettingsWriter::place, place),
               Field(&SettingsWriter::what, what));
}

TEST_F(SettingsWritersTest, ADirectoryThatIsOrHoldsTheSettingsIsAWriter) {
  Declare("same", Checkout());
  Declare("above", root_ + "/srv");
  Declare("settings", Checkout() + "/.bravebot");
  EXPECT_THAT(
      WritersOf(Checkout()),
      ElementsAre(Writer("same", Checkout(), "--dir"), Writer("above", root_ + "/srv", "--dir"),
                  Writer("settings", Checkout() + "/.bravebot", "--dir")));
}

TEST_F(SettingsWritersTest, ADirectoryBesideOrBelowTheSettingsWritesNone) {
  std::filesystem::create_directories(Checkout() + "/sub");
  std::filesystem::create_directories(Checkout() + "/.bravebot/deeper");
  std::filesystem::create_directories(root_ + "/srv/proj2");
  Declare("below", Checkout() + "/sub");
  Declare("deeper", Checkout() + "/.bravebot/deeper");
  Declare("beside", root_ + "/srv/proj2");
  Declare("named-alike", root_ + "/srv/pro");
  Declare("none", "");
  Declaration service;
  service.alias = "service";
  service.transport = Transport::kHttp;
  service.url = "https://example.com/mcp";
  declarations_.declarations.push_back(service);
  EXPECT_THAT(WritersOf(Checkout()), IsEmpty());
}

TEST_F(SettingsWritersTest, ALinkToTheCheckoutOrToTheDirectoryIsSeenThrough) {
  std::filesystem::create_symlink(Checkout(), root_ + "/link-to-checkout");
  std::filesystem::create_symlink(root_ + "/srv", root_ + "/link-to-srv");
  Declare("through-link", root_ + "/link-to-srv");
  EXPECT_THAT(WritersOf(root_ + "/link-to-checkout"),
              ElementsAre(Writer("through-link", root_ + "/link-to-srv", "--dir")));
}

TEST_F(SettingsWritersTest, ACheckoutInAServersHomeOrRunDirectoryHasAWriter) {
  Declare("homed", "");
  const std::string home =
      Profile() + "/mcp-home/" + ComputeDigest(declarations_.declarations[0]).hex;
  std::filesystem::create_directories(home + "/work/.bravebot");
  EXPECT_THAT(WritersOf(home + "/work"), ElementsAre(Writer("homed", home, "home")));

  const std::string old_home = Profile() + "/mcp-home/0123";
  std::filesystem::create_directories(old_home + "/.bravebot");
  EXPECT_THAT(WritersOf(old_home), ElementsAre(Writer("", Profile() + "/mcp-home", "home")));

  const std::string run = root_ + "/tmp/bravebot-run-AbC123";
  std::filesystem::create_directories(run + "/work/.bravebot");
  EXPECT_THAT(WritersOf(run + "/work"), ElementsAre(Writer("", run, "temporary directory")));
  std::filesystem::create_directories(root_ + "/tmp/elsewhere/.bravebot");
  EXPECT_THAT(WritersOf(root_ + "/tmp/elsewhere"), IsEmpty());
}

TEST_F(SettingsWritersTest, AddFindsTheSettingsADirectoryHoldsWithoutFollowingLinks) {
  std::filesystem::create_directories(root_ + "/srv/a/b/c/.bravebot");
  std::filesystem::create_directories(root_ + "/srv/a/b/c/d/.bravebot");  // too deep
  std::filesystem::create_directories(root_ + "/srv/node_modules/x/.bravebot");
  std::filesystem::create_directories(root_ + "/elsewhere/.bravebot");
  std::filesystem::create_directory_symlink(root_ + "/elsewhere", root_ + "/srv/link");
  EXPECT_THAT(CheckoutSettingsDirectoriesIn(root_ + "/srv").directories,
              ElementsAre(root_ + "/srv/a/b/c/.bravebot", Checkout() + "/.bravebot"));
  EXPECT_THAT(CheckoutSettingsDirectoriesIn(Checkout() + "/.bravebot").directories,
              ElementsAre(Checkout() + "/.bravebot"));
  EXPECT_THAT(CheckoutSettingsDirectoriesIn(root_ + "/profile").directories, IsEmpty());
}

TEST(DescribeServerWritableSettingsTest, NamesTheFileEveryWriterAndWhatToDo) {
  EXPECT_EQ(
      DescribeServerWritableSettings(
          "/srv/proj/.bravebot/settings.json",
          {{"planter", "/srv/proj", "--dir"}, {"", "/tmp/bravebot-run-x", "temporary directory"}}),
      "/srv/proj/.bravebot/settings.json is read for its deny and ask rules alone, since planter "
      "and a server may write it (planter's --dir, /srv/proj; a server's temporary directory, "
      "/tmp/bravebot-run-x): the servers it requests and its allow rules count for nothing, so "
      "that nothing a server writes makes a session ask less. To have them count, read it, take "
      "out what you did not write, and give planter a --dir that does not hold "
      "/srv/proj/.bravebot; a rule that must hold whatever a server "
      "writes belongs in the profile directory's settings.json");
}

}  // namespace
}  // namespace bravebot
