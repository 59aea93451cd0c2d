// ConfineReach, the pure half of starting a server: which mechanism keeps
// each promise on a given kernel, and the words for what none keeps.
#include "supervisor/servers/confined_server.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

namespace bravebot {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

Reach SampleReach() {
  Reach reach;
  reach.paths = {
      {"/home/u/.bravebot/mcp-home/abc", PathAccess::kReadWriteExecute, false, "its private home"},
      {"/usr", PathAccess::kReadExecute, false, "system programs and libraries"},
  };
  reach.socket_places = {"/home/u", "/run", "/tmp"};
  return reach;
}

KernelFacts Kernel(int abi, bool namespaces) { return {abi, {namespaces, namespaces, ""}}; }

const BackendChoice kLandlock{Backend::kLandlock, ""};

TEST(ConfineReachTest, BelowAbi9TheSocketPromiseIsKeptByMountsWhereANamespaceIsHad) {
  for (int abi = 1; abi <= 8; ++abi) {
    Confinement confinement = ConfineReach(SampleReach(), Kernel(abi, true), true, kLandlock);
    ASSERT_TRUE(confinement.socket_mask.has_value()) << "ABI " << abi;
    EXPECT_EQ(confinement.socket_mask->hidden.size(), 3u);
    EXPECT_THAT(confinement.landlock.unkept_promises, Not(Contains(EveryLocalSocketUnkept(abi))));
    EXPECT_THAT(confinement.landlock.unkept_promises,
                Contains(SocketPromiseKeptByMounts(*confinement.socket_mask, abi)));
  }
}

TEST(ConfineReachTest, WithoutANamespaceEveryLocalSocketIsSaidReachable) {
  for (bool machine_allows : {false, true}) {
    // Either the machine allows none, or the hostile battery turns them off.
    Confinement confinement =
        ConfineReach(SampleReach(), Kernel(7, machine_allows), false, kLandlock);
    EXPECT_FALSE(confinement.socket_mask.has_value());
    EXPECT_THAT(confinement.landlock.unkept_promises, Contains(EveryLocalSocketUnkept(7)));
  }
}

TEST(ConfineReachTest, FromAbi9LandlockKeepsItAndNothingIsHidden) {
  Confinement confinement = ConfineReach(SampleReach(), Kernel(9, true), true, kLandlock);
  EXPECT_FALSE(confinement.socket_mask.has_value());
  for (const std::string& promise : confinement.landlock.unkept_promises) {
    EXPECT_THAT(promise, Not(HasSubstr("socket")));
  }
}

// bwrap's root holds its binds alone: nothing is hidden, there is nothing
// else there.
TEST(ConfineReachTest, UnderBubblewrapNothingIsHidden) {
  Confinement confinement =
      ConfineReach(SampleReach(), Kernel(7, true), true, {Backend::kBubblewrap, ""});
  EXPECT_FALSE(confinement.socket_mask.has_value());
}

}  // namespace
}  // namespace bravebot
