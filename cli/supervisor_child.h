// bravebot-supervisor as a child of `bravebot-mcp session`: started with a
// pipe on its standard input and one on its standard output, its standard
// error (its log, and the servers' lines it passes on) shared with ours.
// Lines are read from its output here, one JSON-RPC message each.
#ifndef BRAVEBOT_CLI_SUPERVISOR_CHILD_H_
#define BRAVEBOT_CLI_SUPERVISOR_CHILD_H_

#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>

#include "base/result.h"
#include "base/unique_fd.h"

namespace bravebot {

class SupervisorChild {
 public:
  // Starts `program`, in the current directory, with our environment.
  static Result<std::unique_ptr<SupervisorChild>> Start(const std::string& program);
  ~SupervisorChild();  // closes its input and waits for it

  // Writes `line` and a newline to its input; false where it closed it.
  bool WriteLine(const std::string& line);

  // A whole line it wrote, without its newline, where one was read already.
  std::optional<std::string> TakeBufferedLine();
  // Reads what it wrote so far (blocking until something comes); false at
  // the end of its output.
  bool ReadMore();
  int output_fd() const { return output_.get(); }

  // Closes its input, which ends it, and gives its exit status as a shell
  // does (128 + N for signal N).
  int Wait();

 private:
  SupervisorChild(pid_t pid, UniqueFd input, UniqueFd output);

  pid_t pid_;
  UniqueFd input_;
  UniqueFd output_;
  std::string buffer_;  // what it wrote after its last whole line
  std::optional<int> status_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_SUPERVISOR_CHILD_H_
