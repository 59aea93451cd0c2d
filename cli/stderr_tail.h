// Drains a server's standard error on a thread of its own, so a server that
// writes much there never blocks on a full pipe, and keeps its last lines for
// the report of a failed start. It may also pass every byte on.
//
//   StderrTail tail(server.stderr_fd(), /*forward_to=*/-1);
//   ... on failure: for (auto& line : tail.LastLines()) std::cerr << line;
//
// What it keeps is bounded, whatever the server writes: the last 20 lines, and
// of each at most its last kMaxLineBytes, after "..." when it was longer. A
// server that writes endlessly without a newline costs a few KiB, not memory
// without end.
#ifndef BRAVEBOT_CLI_STDERR_TAIL_H_
#define BRAVEBOT_CLI_STDERR_TAIL_H_

#include <atomic>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace bravebot {

class StderrTail {
 public:
  // The bytes kept of one line: its end, where the error usually is.
  static constexpr std::size_t kMaxLineBytes = 1024;

  // Reads `fd` (borrowed, it must outlive this) until end of file; writes what
  // it reads to `forward_to` as well unless that is -1, waiting for room when
  // that descriptor is non-blocking.
  StderrTail(int fd, int forward_to, std::size_t keep_lines = 20);
  // Stops reading: what is still in the pipe is read first, and a process
  // that keeps the pipe open does not hold mcp-run back.
  ~StderrTail();

  StderrTail(const StderrTail&) = delete;
  StderrTail& operator=(const StderrTail&) = delete;

  // Waits up to `milliseconds` for the server's stderr to end, then gives the
  // last lines read so far (a partial last line included).
  std::vector<std::string> LastLines(int milliseconds = 300);

 private:
  void Drain(int fd, int forward_to);
  // Writes all of `bytes` to `fd`; false when it cannot.
  bool Forward(int fd, std::string_view bytes);
  // Adds what was read to the lines kept. Call with mutex_ held.
  void Keep(std::string_view bytes);
  // The line being read as it is shown: its last kMaxLineBytes, marked when cut.
  std::string PartialShown() const;

  std::mutex mutex_;
  std::deque<std::string> lines_;
  std::string partial_;  // the line being read, or at least its last kMaxLineBytes
  bool partial_cut_ = false;
  std::size_t keep_lines_;
  bool ended_ = false;
  std::atomic<bool> stop_ = false;
  std::thread thread_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_STDERR_TAIL_H_
