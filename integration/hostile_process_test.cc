// The hostile battery, on what a server may do beyond its files: change the
// priority, limits or scheduling of processes outside its confinement, signal
// every one of them, watch the files they open, or listen for them on a TCP
// port. seccomp refuses the first ones whatever the server's PID namespace,
// so a refusal there is EPERM, under either backend, and each test measures
// that the process aimed at is as it was; Landlock refuses the last (EACCES),
// which bubblewrap cannot.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <linux/capability.h>
#include <linux/ioprio.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "base/unique_fd.h"
#include "integration/hostile_fixture.h"
#include "integration/process_scan.h"
#include "integration/running_command.h"

namespace bravebot::testing {
namespace {

// Each probe runs under both backends: seccomp refuses the same calls inside
// bwrap, which loads our filter last.
constexpr Layers kBackends[] = {Layers::kEvery, Layers::kBubblewrap};

class HostileProcessTest : public HostileTest {
 protected:
  // Refused with `words` under each backend.
  ::testing::AssertionResult RefusedUnderEach(const std::string& probe, const Named& named,
                                              const std::string& words) const {
    std::string failures;
    for (Layers layers : kBackends) {
      if (!Runs(layers)) continue;
      ::testing::AssertionResult refused = Refused(Run(probe, named, {}, layers), words);
      if (!refused)
        failures += std::string("\nunder ") + LayersName(layers) + ": " + refused.message();
    }
    if (failures.empty()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << probe << failures;
  }
};

// A process outside the confinement that holds no capability, as any process
// of an ordinary user does, or a root service that dropped them. The kernel
// lets a process change the priority and scheduling of another of its user
// only when it holds every capability the other holds, so this is what a
// confined server (root or not, it holds none) could change. Killed at the end.
class Bystander {
 public:
  Bystander() {
    int ready[2];
    if (::pipe2(ready, O_CLOEXEC) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      struct sched_param parameters = {};
      ::sched_setscheduler(0, SCHED_OTHER, &parameters);  // so that SCHED_BATCH would show
      struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
      struct __user_cap_data_struct none[_LINUX_CAPABILITY_U32S_3] = {};
      if (::syscall(SYS_capset, &header, none) != 0) ::_exit(1);
      if (::write(ready[1], "r", 1) != 1) ::_exit(1);
      while (true) ::pause();
    }
    ::close(ready[1]);
    char byte;
    // Measured only once it is as it will stay: a child that failed is no bystander.
    if (pid_ > 0 && ::read(ready[0], &byte, 1) != 1) {
      ::waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
    ::close(ready[0]);
  }
  ~Bystander() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  Bystander(const Bystander&) = delete;
  Bystander& operator=(const Bystander&) = delete;

  pid_t pid() const { return pid_; }
  std::string Named() const { return std::to_string(pid_); }

  // -100, outside the nice values, when it cannot be read.
  int Nice() const {
    errno = 0;
    int nice = ::getpriority(PRIO_PROCESS, static_cast<id_t>(pid_));
    return errno == 0 ? nice : -100;
  }
  int Policy() const { return ::sched_getscheduler(pid_); }
  long IoPriority() const { return ::syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, pid_); }

 private:
  pid_t pid_ = -1;
};

// A nice value other than `nice` that any process may set: a higher one.
std::string OtherNice(int nice) { return std::to_string(nice < 19 ? nice + 1 : 18); }

// --- Processes outside ---

// prlimit has no capability check: as root, a server could limit any root
// process, the test (which holds every capability) among them.
TEST_F(HostileProcessTest, LimitingTheTestProcessIsRefused) {
  struct rlimit before;
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &before), 0);
  ASSERT_GT(before.rlim_cur, 0u);
  EXPECT_TRUE(RefusedUnderEach("prlimit_test_process",
                               {{"TARGET_PID", std::to_string(::getpid())},
                                {"NOFILE_SOFT", std::to_string(before.rlim_cur - 1)},
                                {"NOFILE_HARD", std::to_string(before.rlim_max)}},
                               kNotPermitted));
  struct rlimit after;
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &after), 0);
  EXPECT_EQ(after.rlim_cur, before.rlim_cur) << "the probe lowered the test's open-file limit";
  ::setrlimit(RLIMIT_NOFILE, &before);
}

TEST_F(HostileProcessTest, RenicingAProcessOutsideIsRefused) {
  Bystander outside;
  ASSERT_GT(outside.pid(), 0) << std::strerror(errno);
  const int before = outside.Nice();
  ASSERT_NE(before, -100) << std::strerror(errno);
  EXPECT_TRUE(RefusedUnderEach("renice_process",
                               {{"TARGET_PID", outside.Named()}, {"NICE", OtherNice(before)}},
                               kNotPermitted));
  EXPECT_EQ(outside.Nice(), before) << "the probe reniced a process outside";
}

// Were it not refused, every process of the user that holds no capability
// would be reniced by one.
TEST_F(HostileProcessTest, RenicingEveryProcessOfTheUserIsRefused) {
  Bystander outside;
  ASSERT_GT(outside.pid(), 0) << std::strerror(errno);
  const int before = outside.Nice();
  ASSERT_NE(before, -100) << std::strerror(errno);
  EXPECT_TRUE(RefusedUnderEach("renice_user", {{"NICE", OtherNice(before)}}, kNotPermitted));
  EXPECT_EQ(outside.Nice(), before) << "the probe reniced a process outside";
}

TEST_F(HostileProcessTest, ReschedulingAProcessOutsideIsRefused) {
  Bystander outside;
  ASSERT_GT(outside.pid(), 0) << std::strerror(errno);
  const int before = outside.Policy();
  ASSERT_GE(before, 0) << std::strerror(errno);
  ASSERT_EQ(before, SCHED_OTHER);
  EXPECT_TRUE(
      RefusedUnderEach("reschedule_process", {{"TARGET_PID", outside.Named()}}, kNotPermitted));
  EXPECT_EQ(outside.Policy(), before) << "the probe changed the scheduling of a process outside";
}

TEST_F(HostileProcessTest, SettingTheIoPriorityOfEveryProcessOfTheUserIsRefused) {
  Bystander outside;
  ASSERT_GT(outside.pid(), 0) << std::strerror(errno);
  const long before = outside.IoPriority();
  ASSERT_GE(before, 0) << std::strerror(errno);
  const long lowest = IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 7);
  const long other = before != lowest ? lowest : IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 6);
  EXPECT_TRUE(RefusedUnderEach("ioprio_user", {{"IOPRIO", std::to_string(other)}}, kNotPermitted));
  EXPECT_EQ(outside.IoPriority(), before) << "the probe changed the I/O priority of a process";
}

TEST_F(HostileProcessTest, SignallingEveryProcessIsRefused) {
  EXPECT_TRUE(RefusedUnderEach("kill_every_process", {}, kNotPermitted));
}

// --- Watching files ---

TEST_F(HostileProcessTest, WatchingTheProfileDirectoryIsRefused) {
  EXPECT_TRUE(RefusedUnderEach("inotify_watch", {{"TARGET_DIR", Profile()}}, kNotPermitted));
}

TEST_F(HostileProcessTest, WatchingTheUsersHomeIsRefused) {
  EXPECT_TRUE(RefusedUnderEach("inotify_watch", {{"TARGET_DIR", Path("home")}}, kNotPermitted));
}

// Inside its reach too: refused by the call, not by the path.
TEST_F(HostileProcessTest, WatchingItsWorkingDirectoryIsRefused) {
  EXPECT_TRUE(RefusedUnderEach("inotify_watch", {{"TARGET_DIR", Path("work")}}, kNotPermitted));
}

TEST_F(HostileProcessTest, WatchingTheProfileDirectoryWithFanotifyIsRefused) {
  EXPECT_TRUE(RefusedUnderEach("fanotify_watch", {{"TARGET_DIR", Profile()}}, kNotPermitted));
}

// --- Listening ---

constexpr char kAccessDenied[] = "Permission denied";

TEST_F(HostileProcessTest, ListeningOnATcpPortIsRefused) {
  if (abi_ < 4) GTEST_SKIP() << NeedsAbi(4, abi_);
  EXPECT_TRUE(Refused(Run("listen_tcp"), kAccessDenied));
}

// bubblewrap has no rule for binding ports, and the reach shares the
// machine's network: under it a server may listen, as `reach` says ("it can
// listen on a TCP port: bubblewrap has no rule for binding ports"). Measured,
// so that the day it is refused the words of the reach change with it.
TEST_F(HostileProcessTest, ListeningOnATcpPortIsNotRefusedUnderBubblewrap) {
  EXPECT_TRUE(Worked(Run("listen_tcp", {}, {}, Layers::kBubblewrap)));
}

TEST_F(HostileProcessTest, ConnectingOutOverTcpWorks) {
  UniqueFd listening(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  ASSERT_TRUE(listening.valid()) << std::strerror(errno);
  struct sockaddr_in address = {};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof(address);
  ASSERT_EQ(::bind(listening.get(), reinterpret_cast<struct sockaddr*>(&address), size), 0)
      << std::strerror(errno);
  ASSERT_EQ(::listen(listening.get(), 4), 0) << std::strerror(errno);
  ASSERT_EQ(::getsockname(listening.get(), reinterpret_cast<struct sockaddr*>(&address), &size), 0);
  for (Layers layers : kBackends) {
    if (!Runs(layers)) continue;
    EXPECT_TRUE(
        Worked(Run("connect_tcp", {{"PORT", std::to_string(ntohs(address.sin_port))}}, {}, layers)))
        << LayersName(layers);
  }
}

// --- What bwrap is given ---

// /proc/PID/cmdline is every user's to read: under bubblewrap the values of
// the environment go to bwrap in a sealed memory file (--args), and no
// process, bwrap or the server, holds one as an argument.
TEST_F(HostileProcessTest, UnderBubblewrapNoValueOfTheEnvironmentIsOnACommandLine) {
  const std::string value = "value-of-" + std::to_string(::getpid()) + "-kept-off-argv";
  // Named, and read from confined-exec's environment: on no command line of
  // ours either.
  pid_t started =
      StartCommand({ConfinedExec(), "secretive", "-e", "SECRET_WORD", "--dir", Path("work"), "--",
                    "/bin/sh", "-c", "printenv SECRET_WORD > given; sleep 2"},
                   {"BRAVEBOT_HOME=" + Profile(), "HOME=" + Path("home"), "PATH=/usr/bin:/bin",
                    "BRAVEBOT_BACKEND=bubblewrap", "SECRET_WORD=" + value});
  ASSERT_GT(started, 0);
  for (int tries = 0; tries < 200 && !std::filesystem::exists(Path("work/given")); ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_THAT(ProcessesWithArgument(value), ::testing::IsEmpty());
  EXPECT_EQ(WaitForExit(started), 0);
  std::ifstream given(Path("work/given"));
  std::string line;
  std::getline(given, line);
  EXPECT_EQ(line, value) << "the server was not given the value";
}

// --- Ending ---

// A server that ignores SIGTERM and forks a daemon that ignores it too, in a
// session of its own: once its input ends, mcp-run --stdio stops it (grace,
// SIGTERM to its first process's group, SIGKILL), and nothing of it is left.
// Under bubblewrap the first process is bwrap: SIGTERM ends it, and
// --die-with-parent then kills bwrap's PID namespace whole.
TEST_F(HostileProcessTest, WhatIgnoresSigtermInASessionOfItsOwnEndsWhenItIsStopped) {
  for (Layers layers : kBackends) {
    if (!Runs(layers)) continue;
    const std::string marker =
        "31" + std::to_string(::getpid()) + std::to_string(static_cast<int>(layers)) + ".9";
    std::vector<std::string> environment = {"BRAVEBOT_HOME=" + Profile(), "HOME=" + Path("home"),
                                            "PATH=/usr/bin:/bin"};
    for (const std::string& variable : LayersEnvironment(layers)) environment.push_back(variable);
    RunningCommand bridge(
        {OurProgram("mcp-run"), "--stdio", "stubborn", "--", "/bin/sh", "-c",
         "setsid /bin/sh -c \"trap '' TERM; exec sleep " + marker +
             "\" </dev/null >/dev/null 2>&1 & trap '' TERM; echo ready; while :; do sleep 1; done"},
        environment, scenario_, Path("stderr"));
    ASSERT_EQ(bridge.ReadLines(1, In(std::chrono::seconds(10))), std::vector<std::string>{"ready"})
        << LayersName(layers);
    // Found on one scan: a process in the middle of its exec shows no
    // arguments for a moment.
    std::vector<std::string> daemon = ProcessesWithArgument(marker);
    for (int tries = 0; tries < 200 && daemon.size() != 1; ++tries) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      daemon = ProcessesWithArgument(marker);
    }
    ASSERT_EQ(daemon.size(), 1u) << "the daemon never started under " << LayersName(layers);
    bridge.CloseInput();
    EXPECT_TRUE(bridge.Wait(In(std::chrono::seconds(15)))) << LayersName(layers);
    std::vector<std::string> left = ProcessesWithArgument(marker);
    for (int tries = 0; tries < 100 && !left.empty(); ++tries) {
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      left = ProcessesWithArgument(marker);
    }
    EXPECT_THAT(left, ::testing::IsEmpty())
        << "the daemon outlived Stop under " << LayersName(layers);
    for (const std::string& pid : left) ::kill(std::stoi(pid), SIGKILL);
  }
}

// Stopping passes SIGTERM on to the server itself, so that it may end as it
// means to, under either backend: our init relays it, and under bubblewrap it
// is sent to the server (the first process of bwrap's PID namespace), not to
// bwrap, whose end would kill it outright.
TEST_F(HostileProcessTest, AServerIsGivenSigtermToEndByItselfBeforeItIsKilled) {
  for (Layers layers : kBackends) {
    if (!Runs(layers)) continue;
    std::vector<std::string> environment = {"BRAVEBOT_HOME=" + Profile(), "HOME=" + Path("home"),
                                            "PATH=/usr/bin:/bin"};
    for (const std::string& variable : LayersEnvironment(layers)) environment.push_back(variable);
    RunningCommand bridge(
        {OurProgram("mcp-run"), "--stdio", "tidy", "--dir", Path("work"), "--", "/bin/sh", "-c",
         "trap 'echo ended > ended; exit 0' TERM; echo ready; "
         "while :; do sleep 0.1; done"},
        environment, scenario_, Path("stderr"));
    ASSERT_EQ(bridge.ReadLines(1, In(std::chrono::seconds(10))), std::vector<std::string>{"ready"})
        << LayersName(layers);
    bridge.CloseInput();
    EXPECT_EQ(bridge.Wait(In(std::chrono::seconds(15))), 0) << LayersName(layers);
    EXPECT_TRUE(std::filesystem::exists(Path("work/ended")))
        << "the server was not given SIGTERM under " << LayersName(layers);
    std::filesystem::remove(Path("work/ended"));
  }
}

}  // namespace
}  // namespace bravebot::testing
