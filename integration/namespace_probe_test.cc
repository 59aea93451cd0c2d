// A start hopes for every namespace until this process learned what the
// machine allows; where its launch fails, a probe learns it by starting a
// child in them, and the start is launched again on the answer. A clone that
// fails for want of processes (which another program of the same user, a
// confined server among them, can exhaust) says nothing of what the machine
// allows: it is tried again, and a server is never started without
// namespaces on the strength of it. faults/clone_fails.c makes the launch's
// and the probe's clones fail, with EAGAIN or with EPERM.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "integration/hostile_fixture.h"

namespace bravebot::testing {
namespace {

using ::testing::HasSubstr;

class NamespaceProbeTest : public HostileTest {
 protected:
  void SetUp() override {
    HostileTest::SetUp();
    // The probe is the Landlock launcher's: without Landlock bubblewrap is
    // the backend, and makes the namespaces (or fails) itself.
    if (LandlockAbi() == 0) {
      GTEST_SKIP() << "this kernel has no Landlock, so the launcher that probes the namespaces is "
                      "not the backend";
    }
  }

  // `/bin/sh -c 'echo $$'` under confined-exec, with the first `failures`
  // clones into a user namespace failing ("all": every one) with `error`.
  CommandOutput RunFailing(const std::string& failures, const std::string& error = "EAGAIN") const {
    return RunCommand(
        {ConfinedExec(), "pid", "--dir", Path("work"), "--", "/bin/sh", "-c", "echo $$"},
        {"BRAVEBOT_HOME=" + Profile(), "HOME=" + Path("home"), "PATH=/usr/bin:/bin",
         "LD_PRELOAD=" + OurProgram("clone_fails.so"), "BRAVEBOT_TEST_CLONE_FAILURES=" + failures,
         "BRAVEBOT_TEST_CLONE_ERROR=" + error,
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

// The launch's clone fails, the probe's succeeds: launched again, in them.
TEST_F(NamespaceProbeTest, ACloneThatFailedOnceIsTriedAgain) {
  CommandOutput run = RunFailing("1");
  EXPECT_EQ(run.status, 0) << run.err;
  // The second process of a PID namespace of its own: its init is the first.
  EXPECT_EQ(run.out, "2\n");
}

// A machine that allows no user namespace: the launch hoping for them fails,
// the probe learns the refusal, and the server starts in the machine's
// namespaces (its pid is one of the machine's), as a start there always did.
TEST_F(NamespaceProbeTest, WhereTheKernelRefusesThemTheServerStartsWithout) {
  CommandOutput run = RunFailing("all", "EPERM");
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out, "2\n");
  EXPECT_GT(std::strtol(run.out.c_str(), nullptr, 10), 2) << run.out;
}

}  // namespace
}  // namespace bravebot::testing
