#include "profiles/bubblewrap_links.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/fake_filesystem.h"

namespace bravebot {
namespace {

using ::testing::UnorderedElementsAre;

std::vector<std::string> Shown(const std::vector<BubblewrapLink>& links) {
  std::vector<std::string> shown;
  for (const BubblewrapLink& link : links) shown.push_back(link.path + " -> " + link.target);
  return shown;
}

TEST(BubblewrapLinksTest, FindsTheLinksOfTheRootEtcThePathAndTheProgram) {
  testing::FakeFileSystem fs;
  fs.AddDirectory("/usr/bin");
  fs.AddLink("/bin", "usr/bin");
  fs.AddDirectory("/etc");
  fs.AddFile("/etc/passwd");
  fs.AddLink("/etc/resolv.conf", "../run/systemd/resolve/stub-resolv.conf");
  fs.AddDirectory("/opt/tool-1.2/bin");
  fs.AddLink("/opt/tool", "tool-1.2");
  fs.AddDirectory("/home/u/apps");
  fs.AddLink("/home/u/apps/server", "/opt/tool/bin/server");
  fs.AddFile("/usr/bin/dash");
  fs.AddLink("/usr/bin/sh", "dash");
  Reach reach;
  reach.environment = {{"PATH", "/opt/tool/bin:/usr/bin:relative", "named"}};
  reach.argv = {"/home/u/apps/server"};
  // Beneath the link /bin: reached through it, never made again.
  Reach shell = reach;
  shell.argv = {"/bin/sh"};
  EXPECT_EQ(BubblewrapLinks(shell, fs).size(), BubblewrapLinks(reach, fs).size() - 1);
  EXPECT_THAT(Shown(BubblewrapLinks(reach, fs)),
              UnorderedElementsAre("/bin -> usr/bin", "/opt/tool -> tool-1.2",
                                   "/etc/resolv.conf -> ../run/systemd/resolve/stub-resolv.conf",
                                   "/home/u/apps/server -> /opt/tool/bin/server"));
}

}  // namespace
}  // namespace bravebot
