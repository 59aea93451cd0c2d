#include "profiles/socket_mask_plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace bravebot {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

Reach SampleReach() {
  Reach reach;
  reach.paths = {
      {"/home/u/.bravebot/mcp-home/abc", PathAccess::kReadWriteExecute, false, "its private home"},
      {"/tmp/bravebot-run-x", PathAccess::kReadWriteExecute, false, "its temporary directory"},
      {"/usr", PathAccess::kReadExecute, false, "system programs and libraries"},
      {"/home/u/.nvm/versions/node/v20/bin/node", PathAccess::kReadExecute, true, "program"},
      {"/home/u/.nvm/versions/node/v20", PathAccess::kReadExecute, false, "installation"},
      {"/home/u/notes.txt", PathAccess::kRead, true, "a file it may read"},
  };
  reach.socket_places = {"/dev/shm", "/home/u", "/run", "/tmp", "/var/lib"};
  return reach;
}

std::vector<std::string> PathsOf(const HiddenPlace& place) {
  std::vector<std::string> paths;
  for (const BoundBackPath& back : place.bound_back) {
    paths.push_back(back.path + (back.is_file ? " (file)" : ""));
  }
  return paths;
}

TEST(SocketMaskPlanTest, EachPlaceIsHiddenWithTheReachsPathsBeneathItBoundBack) {
  SocketMaskPlan plan = PlanSocketMask(SampleReach());
  ASSERT_EQ(plan.hidden.size(), 5u);
  EXPECT_EQ(plan.hidden[0].path, "/dev/shm");
  EXPECT_THAT(PathsOf(plan.hidden[0]), IsEmpty());
  EXPECT_EQ(plan.hidden[1].path, "/home/u");
  // The program goes back with its installation, which holds it.
  EXPECT_THAT(PathsOf(plan.hidden[1]),
              ElementsAre("/home/u/.bravebot/mcp-home/abc", "/home/u/.nvm/versions/node/v20",
                          "/home/u/notes.txt (file)"));
  EXPECT_THAT(PathsOf(plan.hidden[3]), ElementsAre("/tmp/bravebot-run-x"));
  EXPECT_THAT(plan.left_open, IsEmpty());
}

TEST(SocketMaskPlanTest, APlaceTheReachHoldsWholeIsLeftOpen) {
  Reach reach = SampleReach();
  reach.paths.push_back({"/var", PathAccess::kRead, false, "a directory it may read"});
  reach.paths.push_back({"/run", PathAccess::kRead, false, "a directory it may read"});
  SocketMaskPlan plan = PlanSocketMask(reach);
  EXPECT_THAT(plan.left_open, ElementsAre("/run", "/var/lib"));
  ASSERT_EQ(plan.hidden.size(), 3u);
  EXPECT_THAT(SocketPromiseKeptByMounts(plan, 7),
              "a local socket in a directory it may only read, or outside /dev/shm, /home/u and "
              "/tmp, or in /run and /var/lib (its reach holds them whole), is reachable: this "
              "kernel has Landlock ABI 7, and ABI 9 is needed to refuse it");
}

TEST(SocketMaskPlanTest, APathBesideAPlaceIsNotBeneathIt) {
  Reach reach;
  reach.paths = {{"/tmp-cache/x", PathAccess::kRead, false, "a directory it may read"}};
  reach.socket_places = {"/tmp"};
  SocketMaskPlan plan = PlanSocketMask(reach);
  ASSERT_EQ(plan.hidden.size(), 1u);
  EXPECT_THAT(PathsOf(plan.hidden[0]), IsEmpty());
}

}  // namespace
}  // namespace bravebot
