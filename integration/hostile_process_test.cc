// The hostile battery, on what a server may do beyond its files: change the
// priority, limits or scheduling of processes outside its confinement, signal
// every one of them, watch the files they open, or listen for them on a TCP
// port. seccomp refuses the first ones whatever the server's PID namespace,
// so a refusal there is EPERM, and each test measures that the process aimed
// at is as it was; Landlock refuses the last (EACCES).
#include <fcntl.h>
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
#include <string>

#include "base/unique_fd.h"
#include "integration/hostile_fixture.h"

namespace bravebot::testing {
namespace {

using HostileProcessTest = HostileTest;

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
  EXPECT_TRUE(
      Refused(Run("prlimit_test_process", {{"TARGET_PID", std::to_string(::getpid())},
                                           {"NOFILE_SOFT", std::to_string(before.rlim_cur - 1)},
                                           {"NOFILE_HARD", std::to_string(before.rlim_max)}}),
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
  EXPECT_TRUE(
      Refused(Run("renice_process", {{"TARGET_PID", outside.Named()}, {"NICE", OtherNice(before)}}),
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
  EXPECT_TRUE(Refused(Run("renice_user", {{"NICE", OtherNice(before)}}), kNotPermitted));
  EXPECT_EQ(outside.Nice(), before) << "the probe reniced a process outside";
}

TEST_F(HostileProcessTest, ReschedulingAProcessOutsideIsRefused) {
  Bystander outside;
  ASSERT_GT(outside.pid(), 0) << std::strerror(errno);
  const int before = outside.Policy();
  ASSERT_GE(before, 0) << std::strerror(errno);
  ASSERT_EQ(before, SCHED_OTHER);
  EXPECT_TRUE(Refused(Run("reschedule_process", {{"TARGET_PID", outside.Named()}}), kNotPermitted));
  EXPECT_EQ(outside.Policy(), before) << "the probe changed the scheduling of a process outside";
}

TEST_F(HostileProcessTest, SettingTheIoPriorityOfEveryProcessOfTheUserIsRefused) {
  Bystander outside;
  ASSERT_GT(outside.pid(), 0) << std::strerror(errno);
  const long before = outside.IoPriority();
  ASSERT_GE(before, 0) << std::strerror(errno);
  const long lowest = IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 7);
  const long other = before != lowest ? lowest : IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 6);
  EXPECT_TRUE(Refused(Run("ioprio_user", {{"IOPRIO", std::to_string(other)}}), kNotPermitted));
  EXPECT_EQ(outside.IoPriority(), before) << "the probe changed the I/O priority of a process";
}

TEST_F(HostileProcessTest, SignallingEveryProcessIsRefused) {
  EXPECT_TRUE(Refused(Run("kill_every_process"), kNotPermitted));
}

// --- Watching files ---

TEST_F(HostileProcessTest, WatchingTheProfileDirectoryIsRefused) {
  EXPECT_TRUE(Refused(Run("inotify_watch", {{"TARGET_DIR", Profile()}}), kNotPermitted));
}

TEST_F(HostileProcessTest, WatchingTheUsersHomeIsRefused) {
  EXPECT_TRUE(Refused(Run("inotify_watch", {{"TARGET_DIR", Path("home")}}), kNotPermitted));
}

// Inside its reach too: refused by the call, not by the path.
TEST_F(HostileProcessTest, WatchingItsWorkingDirectoryIsRefused) {
  EXPECT_TRUE(Refused(Run("inotify_watch", {{"TARGET_DIR", Path("work")}}), kNotPermitted));
}

TEST_F(HostileProcessTest, WatchingTheProfileDirectoryWithFanotifyIsRefused) {
  EXPECT_TRUE(Refused(Run("fanotify_watch", {{"TARGET_DIR", Profile()}}), kNotPermitted));
}

// --- Listening ---

constexpr char kAccessDenied[] = "Permission denied";

TEST_F(HostileProcessTest, ListeningOnATcpPortIsRefused) {
  if (abi_ < 4) GTEST_SKIP() << NeedsAbi(4, abi_);
  EXPECT_TRUE(Refused(Run("listen_tcp"), kAccessDenied));
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
  EXPECT_TRUE(Worked(Run("connect_tcp", {{"PORT", std::to_string(ntohs(address.sin_port))}})));
}

}  // namespace
}  // namespace bravebot::testing
