// bravebot-supervisor as a child of `bravebot-mcp session`: started with a
// pipe on its standard input and one on its standard output, its standard
// error (its log, and the servers' lines it passes on) shared with ours.
// Lines are read from its output here, one JSON-RPC message each.
#ifndef BRAVEBOT_CLI_SUPERVISOR_CHILD_H_
#define BRAVEBOT_CLI_SUPERVISOR_CHILD_H_

#include <memory>
#include <optional>
#include <string>

#include "base/plain_child.h"
#include "base/result.h"
#include "base/unique_fd.h"
#include "confine/filesystem.h"
#include "supervisor/mcp/line_splitter.h"

namespace bravebot {

class SupervisorChild {
 public:
  // Starts `program`, in the current directory, with our environment.
  static Result<std::unique_ptr<SupervisorChild>> Start(const std::string& program);
  // Starts the bravebot-supervisor installed beside this program; where
  // there is none, says so, and that `so_that` cannot be done ("no session
  // can be opened").
  static Result<std::unique_ptr<SupervisorChild>> StartOursBesideUs(const FileSystemView& fs,
                                                                    const std::string& so_that);
  ~SupervisorChild();  // closes its input and waits for it

  // Queues `line` and a newline for its input, and writes what it can
  // without waiting; false where it closed its input. What is left is
  // written by Flush as its input can take it, so the session never blocks
  // on a supervisor that is not reading while the session must read it.
  bool QueueLine(const std::string& line);
  bool Flush();
  bool wants_to_write() const { return !unwritten_.empty() && input_.valid(); }
  int input_fd() const { return input_.get(); }

  // A whole line it wrote, without its newline, where one was read already.
  std::optional<std::string> TakeBufferedLine();
  // Reads what it wrote so far (blocking until something comes); false at
  // the end of its output.
  bool ReadMore();
  // It wrote a line longer than any message: it keeps the protocol no more.
  bool overflowed() const { return lines_.overflowed(); }
  int output_fd() const { return output_.get(); }

  // Closes its input, which ends it, and gives its exit status as a shell
  // does (128 + N for signal N).
  int Wait();

 private:
  SupervisorChild(PlainChild child, UniqueFd input, UniqueFd output);

  PlainChild child_;
  UniqueFd input_;
  UniqueFd output_;
  // What it wrote, split into lines; none is longer than kMaxLineBytes
  // from a supervisor that keeps the protocol.
  LineSplitter lines_;
  std::string unwritten_;  // queued for its input, not written yet
};

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_SUPERVISOR_CHILD_H_
