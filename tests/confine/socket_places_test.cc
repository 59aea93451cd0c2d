#include "confine/socket_places.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/fake_filesystem.h"

namespace bravebot {
namespace {

using ::testing::ElementsAre;

TEST(SocketPlacesTest, EachUsualPlaceThatIsADirectoryOnce) {
  testing::FakeFileSystem fs;
  for (const char* directory : {"/run", "/tmp", "/dev/shm", "/var/lib", "/home/u"}) {
    fs.AddDirectory(directory);
  }
  fs.AddLink("/var/run", "/run");  // as Debian has it: the same place, hidden once
  EXPECT_THAT(UsualSocketPlaces({"/home/u"}, fs),
              ElementsAre("/dev/shm", "/home/u", "/run", "/tmp", "/var/lib"));
}

TEST(SocketPlacesTest, AMissingPlaceOrAFileIsLeftOut) {
  testing::FakeFileSystem fs;
  fs.AddDirectory("/tmp");
  fs.AddFile("/run");
  EXPECT_THAT(UsualSocketPlaces({""}, fs), ElementsAre("/tmp"));
}

TEST(SocketPlacesTest, AHomeReachedThroughALinkIsHiddenWhereItIs) {
  testing::FakeFileSystem fs;
  fs.AddDirectory("/tmp");
  fs.AddDirectory("/data/users/u");
  fs.AddLink("/home", "/data/users");
  EXPECT_THAT(UsualSocketPlaces({"/home/u/"}, fs), ElementsAre("/data/users/u", "/tmp"));
}

TEST(SocketPlacesTest, APlaceBeneathAnotherGoesWithIt) {
  testing::FakeFileSystem fs;
  fs.AddDirectory("/tmp/home/u");
  fs.AddDirectory("/tmp-other");  // sorts between /tmp and /tmp/home, and holds nothing
  EXPECT_THAT(UsualSocketPlaces({"/tmp/home/u"}, fs), ElementsAre("/tmp"));
}

TEST(SocketPlacesTest, BothHomesAndTheProfileDirectoryAreHidden) {
  testing::FakeFileSystem fs;
  fs.AddDirectory("/home/u/.bravebot");
  fs.AddDirectory("/work/u");
  fs.AddDirectory("/srv/bravebot");
  // HOME names /work/u; the account's home holds the profile directory.
  EXPECT_THAT(UsualSocketPlaces({"/work/u", "/home/u", "/home/u/.bravebot"}, fs),
              ElementsAre("/home/u", "/work/u"));
  EXPECT_THAT(UsualSocketPlaces({"/work/u", "", "/srv/bravebot"}, fs),
              ElementsAre("/srv/bravebot", "/work/u"));
}

TEST(SocketPlacesTest, TheRootIsNeverAPlace) {
  testing::FakeFileSystem fs;
  fs.AddDirectory("/tmp");
  EXPECT_THAT(UsualSocketPlaces({"/"}, fs), ElementsAre("/tmp"));
}

}  // namespace
}  // namespace bravebot
