#include "profiles/bubblewrap_plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "confine/reach.h"

namespace bravebot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsSupersetOf;
using ::testing::Not;

Reach SampleReach() {
  Reach reach;
  reach.program = "/usr/bin/node";
  reach.argv = {"node", "server.js", "--port=1"};
  reach.environment = {{"HOME", "/root/.bravebot/mcp-home/abc", "its home"},
                       {"API_KEY", "s3cret value", "stored"}};
  reach.working_directory = "/tmp/bravebot-run-1";
  reach.temporary_directory = "/tmp/bravebot-run-1";
  reach.paths = {
      {"/usr", PathAccess::kReadExecute, false, "system programs"},
      {"/tmp/bravebot-run-1", PathAccess::kReadWriteExecute, false, "its temporary directory"},
      {"/root/.bravebot/mcp-home/abc", PathAccess::kReadWriteExecute, false, "its home"},
      {"/etc/passwd", PathAccess::kRead, true, "system configuration"},
      {"/proc", PathAccess::kRead, false, "the kernel's view"},
      {"/sys", PathAccess::kRead, false, "the kernel's view"},
      {"/dev/null", PathAccess::kReadWrite, true, "a device"},
      {"/usr/local/lib/app/data", PathAccess::kReadWriteExecute, false, "beneath /usr"},
  };
  return reach;
}

// The NUL-separated block as words.
std::vector<std::string> Words(const std::string& block) {
  std::vector<std::string> words;
  size_t start = 0;
  for (size_t end = block.find('\0'); end != std::string::npos; end = block.find('\0', start)) {
    words.push_back(block.substr(start, end - start));
    start = end + 1;
  }
  EXPECT_EQ(start, block.size()) << "the block does not end with a NUL";
  return words;
}

size_t IndexOf(const std::vector<std::string>& words, const std::string& word) {
  for (size_t i = 0; i < words.size(); ++i) {
    if (words[i] == word) return i;
  }
  ADD_FAILURE() << word << " is not among the arguments";
  return words.size();
}

TEST(BubblewrapPlanTest, BindsParentsFirstAndLeavesWhatBwrapMakesToIt) {
  BubblewrapPlan plan = PlanBubblewrap(SampleReach(), {});
  std::vector<std::string> paths;
  for (const BubblewrapBind& bind : plan.binds) {
    paths.push_back(bind.path + (bind.writable ? " rw" : " ro"));
  }
  EXPECT_THAT(paths,
              ElementsAre("/etc/passwd ro", "/root/.bravebot/mcp-home/abc rw", "/sys ro",
                          "/tmp/bravebot-run-1 rw", "/usr ro", "/usr/local/lib/app/data rw"));
}

// A file it may read inside a directory it may write is not bound on its
// own: the bind would be a mount point, and a server that saves by writing
// a new file and renaming it over the old would fail with EBUSY (issue 28).
// A writable place beneath a read-only one keeps its bind.
TEST(BubblewrapPlanTest, BindsNothingBeneathAWritableBind) {
  Reach reach = SampleReach();
  reach.paths.push_back({"/tmp/bravebot-run-1/memory.json", PathAccess::kRead, true, "given"});
  reach.paths.push_back({"/root/.bravebot/mcp-home/abc/cache", PathAccess::kReadWrite, false, "x"});
  std::vector<std::string> paths;
  for (const BubblewrapBind& bind : PlanBubblewrap(reach, {}).binds) {
    paths.push_back(bind.path + (bind.writable ? " rw" : " ro"));
  }
  EXPECT_THAT(paths,
              ElementsAre("/etc/passwd ro", "/root/.bravebot/mcp-home/abc rw", "/sys ro",
                          "/tmp/bravebot-run-1 rw", "/usr ro", "/usr/local/lib/app/data rw"));
}

TEST(BubblewrapPlanTest, MakesALinkAgainOnlyWhereNoBindOrLinkCoversIt) {
  BubblewrapPlan plan = PlanBubblewrap(SampleReach(), {{"/bin", "usr/bin"},
                                                       {"/bin/sh", "dash"},
                                                       {"/usr/lib64", "lib"},
                                                       {"/proc/mounts", "self/mounts"}});
  ASSERT_EQ(plan.links.size(), 1u);
  EXPECT_EQ(plan.links[0].path, "/bin");
  EXPECT_EQ(plan.links[0].target, "usr/bin");
}

TEST(BubblewrapPlanTest, ArgumentsHoldEveryNamespaceAndNoNetworkOne) {
  const std::vector<std::string> words =
      Words(BubblewrapArgumentBlock(PlanBubblewrap(SampleReach(), {}), {{6, 7, 8, 9, 10, 11}, 5}));
  EXPECT_THAT(words, IsSupersetOf({"--unshare-user", "--unshare-pid", "--unshare-ipc",
                                   "--disable-userns", "--as-pid-1", "--die-with-parent",
                                   "--new-session", "--clearenv", "--cap-drop", "ALL"}));
  EXPECT_THAT(words, Not(IsSupersetOf({"--unshare-net"})));
  EXPECT_THAT(words, Not(IsSupersetOf({"--unshare-all"})));
  EXPECT_EQ(words[IndexOf(words, "--cap-drop") + 1], "ALL");
  EXPECT_EQ(words[IndexOf(words, "--seccomp") + 1], "5");
  EXPECT_EQ(words[IndexOf(words, "--chdir") + 1], "/tmp/bravebot-run-1");
}

TEST(BubblewrapPlanTest, ItsOwnTemporaryDirectoryIsBoundAfterThePrivateTmp) {
  const std::vector<std::string> words =
      Words(BubblewrapArgumentBlock(PlanBubblewrap(SampleReach(), {}), {{6, 7, 8, 9, 10, 11}, 5}));
  const size_t tmpfs = IndexOf(words, "/tmp");
  const size_t bind = IndexOf(words, "/tmp/bravebot-run-1");
  EXPECT_EQ(words[tmpfs - 1], "--tmpfs");
  EXPECT_LT(tmpfs, bind);
  // The binds' descriptors, in the plan's order, from the first one given.
  EXPECT_EQ(words[bind - 2], "--bind-fd");
  EXPECT_EQ(words[bind - 1], "9");
  EXPECT_EQ(words[IndexOf(words, "/etc/passwd") - 2], "--ro-bind-fd");
  EXPECT_EQ(words[IndexOf(words, "/etc/passwd") - 1], "6");
}

// Outside its binds nothing is writable: the root bwrap made, /dev, /tmp and
// /dev/shm are made read-only once every bind and link is in place.
TEST(BubblewrapPlanTest, EverythingButItsBindsIsMadeReadOnlyLast) {
  const std::vector<std::string> words = Words(BubblewrapArgumentBlock(
      PlanBubblewrap(SampleReach(), {{"/bin", "usr/bin"}}), {{6, 7, 8, 9, 10, 11}, 5}));
  std::vector<std::string> read_only;
  size_t first = words.size();
  for (size_t i = 0; i + 1 < words.size(); ++i) {
    if (words[i] != "--remount-ro") continue;
    read_only.push_back(words[i + 1]);
    first = std::min(first, i);
  }
  EXPECT_THAT(read_only, ElementsAre("/tmp", "/dev/shm", "/dev", "/"));
  EXPECT_LT(IndexOf(words, "/usr/local/lib/app/data"), first);
  EXPECT_LT(IndexOf(words, "--symlink"), first);
}

TEST(BubblewrapPlanTest, SaysTheServersPidOnTheStatusDescriptorWhereOneIsGiven) {
  const BubblewrapPlan plan = PlanBubblewrap(SampleReach(), {});
  const std::vector<std::string> with = Words(BubblewrapArgumentBlock(plan, {{6}, 5, 12}));
  EXPECT_EQ(with[IndexOf(with, "--json-status-fd") + 1], "12");
  const std::vector<std::string> without = Words(BubblewrapArgumentBlock(plan, {{6}, 5}));
  EXPECT_THAT(without, Not(IsSupersetOf({"--json-status-fd"})));
}

TEST(BubblewrapPlanTest, TheEnvironmentIsClearedThenSetInTheBlock) {
  const std::vector<std::string> words =
      Words(BubblewrapArgumentBlock(PlanBubblewrap(SampleReach(), {}), {{6, 7, 8, 9, 10, 11}, 5}));
  const size_t clear = IndexOf(words, "--clearenv");
  const size_t key = IndexOf(words, "API_KEY");
  EXPECT_LT(clear, key);
  EXPECT_EQ(words[key - 1], "--setenv");
  EXPECT_EQ(words[key + 1], "s3cret value");
}

// bwrap's command line is every user's to read: no value of the environment
// is on it, only the server's own program and arguments.
TEST(BubblewrapPlanTest, TheCommandLineHoldsNoValueOfTheEnvironment) {
  const std::vector<std::string> words =
      BubblewrapCommandLine(PlanBubblewrap(SampleReach(), {}), 4);
  EXPECT_THAT(words,
              ElementsAre("bwrap", "--args", "4", "--", "/usr/bin/node", "server.js", "--port=1"));
}

TEST(BubblewrapPlanTest, SaysWhatItCannotGive) {
  const BubblewrapPlan plan = PlanBubblewrap(SampleReach(), {});
  std::string promises;
  for (const std::string& promise : plan.unkept_promises) promises += promise + "\n";
  EXPECT_THAT(promises, HasSubstr("paths outside its binds do not exist for it (no look at them)"));
  EXPECT_THAT(promises, HasSubstr("listen on a TCP port"));
  EXPECT_THAT(promises, HasSubstr("abstract sockets"));
  EXPECT_THAT(promises, HasSubstr("PWD"));
}

}  // namespace
}  // namespace bravebot
