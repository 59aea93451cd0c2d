// bravebot-mcp-init run by hand, with the descriptors it is given crafted:
// what it refuses before any server runs.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <optional>
#include <string>
#include <vector>

#include "integration/programs.h"
#include "launcher/child_report.h"

namespace bravebot::testing {
namespace {

struct InitRun {
  int status = -1;                      // the exit status
  std::optional<ChildFailure> failure;  // what it reported on the error pipe
};

// Runs the init with `arguments`, an error pipe on kErrorFd and, for each
// of `memory_files`, an empty memory file on that number; nothing else open.
InitRun RunInit(std::vector<std::string> arguments, const std::vector<int>& memory_files) {
  int pipe_fds[2];
  EXPECT_EQ(::pipe2(pipe_fds, O_CLOEXEC), 0);
  std::vector<int> files;
  for (size_t i = 0; i < memory_files.size(); ++i) {
    files.push_back(::memfd_create("init-test", MFD_CLOEXEC));
  }
  arguments.insert(arguments.begin(), OurProgram("bravebot-mcp-init"));
  std::vector<char*> argv;
  for (std::string& word : arguments) argv.push_back(word.data());
  argv.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid == 0) {
    // Out of the way of the numbers first, then onto them.
    int error = ::fcntl(pipe_fds[1], F_DUPFD, 100);
    std::vector<int> moved;
    for (int file : files) moved.push_back(::fcntl(file, F_DUPFD, 100));
    ::dup2(error, kErrorFd);
    for (size_t i = 0; i < moved.size(); ++i) ::dup2(moved[i], memory_files[i]);
    ::syscall(SYS_close_range, 3 + 20, ~0U, 0);
    for (int fd = kErrorFd + 1; fd < 3 + 20; ++fd) {
      bool kept = false;
      for (int wanted : memory_files) kept = kept || wanted == fd;
      if (!kept) ::close(fd);
    }
    ::execv(argv[0], argv.data());
    ::_exit(126);
  }
  ::close(pipe_fds[1]);
  for (int file : files) ::close(file);
  InitRun run;
  ChildFailure failure{};
  if (::read(pipe_fds[0], &failure, sizeof(failure)) == sizeof(failure)) run.failure = failure;
  ::close(pipe_fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return run;
}

TEST(InitTest, ToldToEnforceLandlockWithoutARulesetItStartsNothing) {
  InitRun run = RunInit({kInitWithLandlock, "/bin/true", "true"}, {kSeccompFd, kEnvironmentFd});
  EXPECT_EQ(run.status, 127);
  ASSERT_TRUE(run.failure);
  EXPECT_EQ(run.failure->step, static_cast<int>(ChildStep::kLandlock));
  EXPECT_EQ(run.failure->errno_value, EBADF);
}

TEST(InitTest, AFlagItDoesNotKnowStartsNothing) {
  InitRun run = RunInit({"--maybe-landlock", "/bin/true", "true"}, {kSeccompFd, kEnvironmentFd});
  EXPECT_EQ(run.status, 127);
  ASSERT_TRUE(run.failure);
  EXPECT_EQ(run.failure->step, static_cast<int>(ChildStep::kInit));
}

TEST(InitTest, AnEmptyFilterStartsNothing) {
  // The memory file on kSeccompFd holds no instruction: no server runs
  // without its filter.
  InitRun run = RunInit({kInitWithoutLandlock, "/bin/true", "true"}, {kSeccompFd, kEnvironmentFd});
  EXPECT_EQ(run.status, 127);
  ASSERT_TRUE(run.failure);
  EXPECT_EQ(run.failure->step, static_cast<int>(ChildStep::kSeccomp));
  EXPECT_EQ(run.failure->errno_value, EINVAL);
}

TEST(InitTest, RunByHandItSaysWhatItIsFor) {
  std::string init = OurProgram("bravebot-mcp-init");
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(::open("/dev/null", O_WRONLY), STDERR_FILENO);
    ::syscall(SYS_close_range, 3, ~0U, 0);
    ::execl(init.c_str(), init.c_str(), kInitWithLandlock, "/bin/true", "true", nullptr);
    ::_exit(126);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
}

}  // namespace
}  // namespace bravebot::testing
