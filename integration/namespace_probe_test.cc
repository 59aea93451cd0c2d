// Whether the machine allows the namespaces a server starts in is learned by
// starting a child in them. A clone that fails for want of processes (which
// another program of the same user, a confined server among them, can
// exhaust) says nothing of what the machine allows: it is tried again, and a
// server is never started without namespaces on the strength of it.
// faults/clone_fails.c makes the probe's clones fail with EAGAIN.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "integration/hostile_fixture.h"

namespace bravebot::testing {
namespace {

using ::testing::HasSubstr;

class NamespaceProbeTest : public HostileTest {
 protected:
  // `/bin/sh -c 'echo $$'` under confined-exec, with the probe's first
  // `failures` clones failing ("all": every one).
  CommandOutput RunFailing(const std::string& failures) const {
    return RunCommand(
        {ConfinedExec(), "pid", "--dir", Path("work"), "--", "/bin/sh", "-c", "echo $$"},
        {"BRAVEBOT_HOME=" + Profile(), "HOME=" + Path("home"), "PATH=/usr/bin:/bin",
         "LD_PRELOAD=" + OurProgram("clone_fails.so"), "BRAVEBOT_TEST_CLONE_FAILURES=" + failures,
         // A sanitizer's runtime would otherwise refuse to come after it.
         "ASAN_OPTIONS=verify_asan_link_order=0"},
        scenario_);
  }
};

TEST_F(NamespaceProbeTest, AProbeThatNeverLearnsStartsNothing) {
  CommandOutput run = RunFailing("all");
  EXPECT_EQ(run.status, 125) << run.out << run.err;
  EXPECT_THAT(run.err, HasSubstr("whether this machine allows the namespaces a server starts in "
                                 "could not be learned"));
  EXPECT_THAT(run.err, HasSubstr("Resource temporarily unavailable"));
  EXPECT_EQ(run.out, "");
}

TEST_F(NamespaceProbeTest, ACloneThatFailedOnceIsTriedAgain) {
  CommandOutput run = RunFailing("1");
  EXPECT_EQ(run.status, 0) << run.err;
  // The second process of a PID namespace of its own: its init is the first.
  EXPECT_EQ(run.out, "2\n");
}

}  // namespace
}  // namespace bravebot::testing
