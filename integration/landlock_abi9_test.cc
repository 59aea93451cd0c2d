// The socket rules of Landlock ABI 9 (LANDLOCK_ACCESS_FS_RESOLVE_UNIX), run
// for real where the kernel has it: a pathname socket is connected to only in
// a directory the server may write, wherever the socket is. Below ABI 9 these
// are the cases the reach says stay reachable (a socket outside the places
// hidden from it, or one it may only read), and each test skips saying so.
// Labelled landlock-abi9 in ctest.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>

#include "base/unique_fd.h"
#include "integration/hostile_fixture.h"

namespace bravebot::testing {
namespace {

using LandlockAbi9Test = HostileTest;

constexpr char kReachableBelow9[] = ": below it, this socket is reachable, as the reach says";

// Landlock refuses it with or without the namespaces; the view alone never
// refuses a connection. Bubblewrap's column is the hostile battery's.
const Expectations kLandlockRefuses = {kDenied, kDenied, std::nullopt, kDenied, std::nullopt};

TEST_F(LandlockAbi9Test, ASocketOutsideTheUsualPlacesIsRefused) {
  if (abi_ < 9) GTEST_SKIP() << NeedsAbi(9, abi_) << kReachableBelow9;
  UniqueFd listening = ListenOn(Path("outside/socket"));
  ASSERT_TRUE(listening.valid()) << std::strerror(errno);
  EXPECT_TRUE(Meets("pathname_socket", {{"TARGET", Path("outside/socket")}}, {}, kLandlockRefuses));
}

TEST_F(LandlockAbi9Test, ASocketItMayOnlyReadIsRefused) {
  if (abi_ < 9) GTEST_SKIP() << NeedsAbi(9, abi_) << kReachableBelow9;
  UniqueFd listening = ListenOn(Path("outside/readable-socket"));
  ASSERT_TRUE(listening.valid()) << std::strerror(errno);
  // Named as an argument, the socket is a file it may read.
  EXPECT_TRUE(Meets("pathname_socket", {{"TARGET", Path("outside/readable-socket")}},
                    {Path("outside/readable-socket")}, kLandlockRefuses));
}

// From ABI 9 by the rule on its temporary directory; below it, on the
// directory bound back where /tmp is hidden.
TEST_F(LandlockAbi9Test, ASocketInItsOwnDirectoryWorks) {
  EXPECT_TRUE(Meets("own_socket", {}, {}, Everywhere(kWorks)));
}

}  // namespace
}  // namespace bravebot::testing
