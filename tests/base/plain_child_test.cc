#include "base/plain_child.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "base/unique_fd.h"

namespace bravebot {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

struct Pipe {
  Pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) == 0) {
      read_end.reset(fds[0]);
      write_end.reset(fds[1]);
    }
  }
  UniqueFd read_end;
  UniqueFd write_end;
};

std::string ReadAll(int fd) {
  std::string text;
  char buffer[512];
  for (ssize_t got; (got = ::read(fd, buffer, sizeof(buffer))) > 0;) text.append(buffer, got);
  return text;
}

// What `script` printed, run by /bin/sh as a plain child.
std::string ShellSays(const std::string& script, bool our_environment = false,
                      const std::vector<std::string>& words = {}) {
  std::vector<std::string> arguments = {"-c", script};
  arguments.insert(arguments.end(), words.begin(), words.end());
  Pipe out;
  Result<PlainChild> child = PlainChild::Start({.program = "/bin/sh",
                                                .arguments = arguments,
                                                .output = out.write_end.get(),
                                                .our_environment = our_environment});
  if (!child.ok()) return "not started: " + child.error().message();
  out.write_end.reset();
  std::string said = ReadAll(out.read_end.get());
  child->Wait();
  return said;
}

// True where no child of ours is `pid`, running or a zombie.
bool NoChildIs(pid_t pid) { return ::waitpid(pid, nullptr, WNOHANG) < 0 && errno == ECHILD; }

// A line of /proc/PID/status ("SigBlk:\t0000000000000000"), its value.
std::string StatusField(pid_t pid, const std::string& field) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind(field + ":", 0) == 0)
      return line.substr(line.find_first_not_of(" \t:", field.size()));
  }
  return "";
}

// `cat` between our pipes, once it echoed a line: past its start-up, so
// what it holds open then is what it was given.
struct RunningCat {
  RunningCat() {
    Result<PlainChild> started = PlainChild::Start(
        {.program = "/bin/cat", .input = in.read_end.get(), .output = out.write_end.get()});
    if (!started.ok()) return;
    child.emplace(std::move(*started));
    in.read_end.reset();
    out.write_end.reset();
    char echoed = 0;
    if (::write(in.write_end.get(), "x", 1) == 1 && ::read(out.read_end.get(), &echoed, 1) == 1) {
      ready = echoed == 'x';
    }
  }
  Pipe in;
  Pipe out;
  std::optional<PlainChild> child;
  bool ready = false;
};

TEST(PlainChildTest, GivesItsExitCode) {
  Result<PlainChild> child =
      PlainChild::Start({.program = "/bin/sh", .arguments = {"-c", "exit 3"}});
  ASSERT_TRUE(child.ok()) << child.error().message();
  EXPECT_EQ(child->Wait(), 3);
  EXPECT_EQ(child->Wait(), 3);  // asked again, the same
}

TEST(PlainChildTest, GivesTheSignalThatEndedItAsAShellDoes) {
  Result<PlainChild> child =
      PlainChild::Start({.program = "/bin/sh", .arguments = {"-c", "kill -TERM $$"}});
  ASSERT_TRUE(child.ok()) << child.error().message();
  EXPECT_EQ(child->Wait(), 128 + SIGTERM);
}

TEST(PlainChildTest, LeavesNoZombieOnceWaitedFor) {
  Result<PlainChild> child = PlainChild::Start({.program = "/bin/true"});
  ASSERT_TRUE(child.ok()) << child.error().message();
  const pid_t pid = child->pid();
  EXPECT_EQ(child->Wait(), 0);
  EXPECT_TRUE(NoChildIs(pid));
}

TEST(PlainChildTest, OneNotWaitedForIsKilledAndReaped) {
  pid_t pid = -1;
  {
    Result<PlainChild> child = PlainChild::Start({.program = "/bin/sleep", .arguments = {"60"}});
    ASSERT_TRUE(child.ok()) << child.error().message();
    pid = child->pid();
  }
  EXPECT_TRUE(NoChildIs(pid));
}

TEST(PlainChildTest, SaysWhyAProgramDidNotStart) {
  Result<PlainChild> child = PlainChild::Start({.program = "/nonexistent/program"});
  ASSERT_FALSE(child.ok());
  EXPECT_THAT(child.error().message(), HasSubstr("starting /nonexistent/program"));
  EXPECT_EQ(child.error().errno_value(), ENOENT);
}

// A file that may be run but is no program passes the check before the
// fork and fails at exec, in the child: that child is reaped, not left.
TEST(PlainChildTest, AChildWhoseExecFailedIsReaped) {
  const std::string path = std::filesystem::temp_directory_path() /
                           ("bravebot-not-a-program-" + std::to_string(::getpid()));
  std::ofstream(path) << "\x7f"
                      << "not a program";
  ASSERT_EQ(::chmod(path.c_str(), 0755), 0);
  Result<PlainChild> child = PlainChild::Start({.program = path});
  std::filesystem::remove(path);
  ASSERT_FALSE(child.ok());
  EXPECT_EQ(child.error().errno_value(), ENOEXEC) << child.error().message();
  errno = 0;
  EXPECT_EQ(::waitpid(-1, nullptr, WNOHANG), -1) << "a child of the failed start is left";
  EXPECT_EQ(errno, ECHILD);
}

TEST(PlainChildTest, HoldsOnlyItsStandardDescriptors) {
  // Opened before the start's own pipes, without O_CLOEXEC, as another
  // thread or a library might: below the descriptors Boost keeps open.
  UniqueFd leaked(::open("/dev/null", O_RDONLY));
  ASSERT_TRUE(leaked.valid());
  RunningCat cat;
  ASSERT_TRUE(cat.ready);
  std::set<std::string> open;
  const std::string fds = "/proc/" + std::to_string(cat.child->pid()) + "/fd";
  for (const auto& entry : std::filesystem::directory_iterator(fds)) {
    open.insert(entry.path().filename());
  }
  EXPECT_THAT(open, ElementsAre("0", "1", "2"));
}

TEST(PlainChildTest, StartsWithPipeSignalsAtTheirDefaultAndNoneBlocked) {
  // As a front end is: SIGPIPE ignored, its stop signals blocked.
  struct sigaction ignore = {}, before = {};
  ignore.sa_handler = SIG_IGN;
  ASSERT_EQ(::sigaction(SIGPIPE, &ignore, &before), 0);
  sigset_t stop, mask_before;
  sigemptyset(&stop);
  sigaddset(&stop, SIGTERM);
  ASSERT_EQ(::sigprocmask(SIG_BLOCK, &stop, &mask_before), 0);
  RunningCat cat;
  ::sigprocmask(SIG_SETMASK, &mask_before, nullptr);
  ::sigaction(SIGPIPE, &before, nullptr);
  ASSERT_TRUE(cat.ready);

  const unsigned long ignored = std::stoul(StatusField(cat.child->pid(), "SigIgn"), nullptr, 16);
  EXPECT_EQ(ignored & (1UL << (SIGPIPE - 1)), 0U);
  EXPECT_EQ(StatusField(cat.child->pid(), "SigBlk"), "0000000000000000");
}

TEST(PlainChildTest, StartsWithAnEmptyEnvironmentOrOurs) {
  ASSERT_EQ(::setenv("BRAVEBOT_PLAIN_CHILD_TEST", "here", 1), 0);
  EXPECT_EQ(ShellSays("echo \"[$BRAVEBOT_PLAIN_CHILD_TEST]\""), "[]\n");
  EXPECT_EQ(ShellSays("echo \"[$BRAVEBOT_PLAIN_CHILD_TEST]\"", true), "[here]\n");
  ::unsetenv("BRAVEBOT_PLAIN_CHILD_TEST");
}

TEST(PlainChildTest, GivesItsArgumentsAndDescriptorsAsPlanned) {
  // Its input is /dev/null where none is given: read finds its end.
  EXPECT_EQ(
      ShellSays("printf '%s|' \"$0\" \"$@\"; read line || echo end", false, {"name", "a b", ""}),
      "name|a b||end\n");
}

}  // namespace
}  // namespace bravebot
