// A program of ours talked to while it runs, for end-to-end tests of what it
// does over time: its standard input and output are pipes the test holds,
// and its standard error goes to a file. Every wait has a deadline, so a
// program that hangs fails its test instead of stopping the suite.
//
//   RunningCommand run({OurProgram("mcp-run"), "--stdio", "x", "--", "/bin/cat"}, env, cwd, err);
//   ASSERT_TRUE(run.Write("hello\n", In(5s)));
//   EXPECT_THAT(run.ReadLines(1, In(5s)), ElementsAre("hello"));
//   run.CloseInput();
//   EXPECT_EQ(run.Wait(In(5s)), 0);
#ifndef BRAVEBOT_INTEGRATION_RUNNING_COMMAND_H_
#define BRAVEBOT_INTEGRATION_RUNNING_COMMAND_H_

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/unique_fd.h"

namespace bravebot::testing {

using Deadline = std::chrono::steady_clock::time_point;

// How many times slower than usual this machine runs programs:
// BRAVEBOT_TEST_SLOWNESS, a whole number from 1 to 20 (1 where unset or
// anything else). QEMU's emulation, where the kernel matrix runs
// (scripts/kernels/matrix-tests.sh), starts a program 5 to 20 times slower.
int TestSlowness();

// A deadline `wait` from now, times TestSlowness(). More room changes no
// test's meaning: what must come has longer to, and what must not is
// watched for longer.
inline Deadline In(std::chrono::milliseconds wait) {
  return std::chrono::steady_clock::now() + wait * TestSlowness();
}

class RunningCommand {
 public:
  // Starts `argv` with exactly `environment`, in `cwd`, its standard error
  // written to the file `stderr_path`.
  RunningCommand(const std::vector<std::string>& argv, const std::vector<std::string>& environment,
                 const std::string& cwd, const std::string& stderr_path);
  // Kills it with SIGKILL if it still runs, and waits for it.
  ~RunningCommand();

  RunningCommand(const RunningCommand&) = delete;
  RunningCommand& operator=(const RunningCommand&) = delete;

  pid_t pid() const { return pid_; }

  // Writes all of `bytes` to its input, reading nothing meanwhile, as a
  // client that writes a whole request before it reads does. False when the
  // deadline passed first or its input is closed.
  bool Write(std::string_view bytes, Deadline deadline);
  void CloseInput() { input_.reset(); }

  // Reads its output until `count` whole lines came, it ended, or the
  // deadline passed; gives the whole lines read, without their '\n'.
  std::vector<std::string> ReadLines(std::size_t count, Deadline deadline);

  // Waits until it ends: its status as a shell gives it (128 + a signal), or
  // nothing when it still runs at the deadline.
  std::optional<int> Wait(Deadline deadline);

 private:
  pid_t pid_ = -1;
  std::optional<int> status_;
  UniqueFd input_;
  UniqueFd output_;
  std::string unread_;  // output read past the last whole line given
};

}  // namespace bravebot::testing

#endif  // BRAVEBOT_INTEGRATION_RUNNING_COMMAND_H_
