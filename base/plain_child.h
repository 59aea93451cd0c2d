// A plain child: a program run without confinement, as the front ends run
// bravebot-supervisor and the bubblewrap backend runs `bwrap --version`,
// started with Boost.Process v2. A confined server is not started here:
// launcher/launch.h clones it into namespaces of its own, which a process
// library that forks cannot do (docs/supervisor-protocol.md, "Which
// children are started how").
//
// Whatever state the parent is in, the child starts from the same one: only
// its descriptors 0, 1 and 2 open (every other, even one another thread
// opened without O_CLOEXEC, is closed at its exec), SIGPIPE at its default
// action (a parent that ignores it would pass that on), and no signal
// blocked (a parent that takes its signals on a thread of its own blocks
// them).
//
//   Result<PlainChild> bwrap = PlainChild::Start({.program = "/usr/bin/bwrap",
//                                                 .arguments = {"--version"},
//                                                 .output = write_end.get()});
//   int status = bwrap->Wait();  // 0, or 128 + N where signal N ended it
#ifndef BRAVEBOT_BASE_PLAIN_CHILD_H_
#define BRAVEBOT_BASE_PLAIN_CHILD_H_

#include <sys/types.h>
#include <unistd.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace bravebot {

// For a descriptor of the plan: the child's is opened on /dev/null.
inline constexpr int kNullDevice = -1;

struct PlainChildPlan {
  std::string program = {};                 // its absolute path; no PATH is searched
  std::vector<std::string> arguments = {};  // after its argv[0], which is `program`
  // The descriptors of ours that become its 0, 1 and 2 (each stays ours).
  int input = kNullDevice;
  int output = kNullDevice;
  int error = STDERR_FILENO;
  bool our_environment = false;  // else it starts with an empty one
};

class PlainChild {
 public:
  // Returns once it executed `program`, or says why it could not.
  static Result<PlainChild> Start(const PlainChildPlan& plan);

  PlainChild(PlainChild&&) noexcept;
  PlainChild& operator=(PlainChild&&) noexcept;
  // One not waited for yet is killed (SIGKILL) and reaped: none is left a
  // zombie.
  ~PlainChild();

  pid_t pid() const;

  // Waits until it ends and gives its exit status as a shell does: its exit
  // code, or 128 + N where signal N ended it; 1 where it cannot be waited
  // for (another waited for it). Again after that, the same answer.
  int Wait();

 private:
  struct Running;
  explicit PlainChild(std::unique_ptr<Running> running);

  std::unique_ptr<Running> running_;
  std::optional<int> status_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_BASE_PLAIN_CHILD_H_
