// Newline-delimited JSON messages on descriptors, as MCP's stdio transport
// carries them: one message per line, no newline inside one. The descriptors
// are borrowed; whoever opened them closes them.
//
//   LineReader reader(from_server_fd);
//   // An error: a read failed, or a line over 16 MiB.
//   BRAVEBOT_ASSIGN_OR_RETURN(LineRead read, reader.ReadLine(deadline));
//   if (read.status == LineStatus::kLine) Use(read.line);
//
//   Status sent = WriteLine(to_server_fd, message.dump(), deadline);
//
// Give non-blocking descriptors (O_NONBLOCK on our ends of the pipes) for a
// deadline to hold throughout: on a blocking one, a write bigger than the pipe
// holds waits for the server to read, deadline or not.
#ifndef BRAVEBOT_SUPERVISOR_MCP_JSON_RPC_LINES_H_
#define BRAVEBOT_SUPERVISOR_MCP_JSON_RPC_LINES_H_

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include "base/result.h"

namespace bravebot {

using Deadline = std::chrono::steady_clock::time_point;

// No message we expect comes near this; a tool list of hundreds of KiB does not.
inline constexpr std::size_t kMaxLineBytes = std::size_t{16} << 20;

enum class LineStatus {
  kLine,         // `line` holds the next line, without its '\n'
  kEndOfStream,  // the writer closed its end (or exited); no line will come
  kTimedOut,     // the deadline passed before a whole line arrived
};

struct LineRead {
  LineStatus status = LineStatus::kLine;
  std::string line;
};

// Reads lines from one descriptor, keeping what follows a line for the next
// call. Bytes left without a '\n' when the stream ends are given as a last
// line: the writer is gone, and they are all it said.
class LineReader {
 public:
  explicit LineReader(int fd, std::size_t max_line_bytes = kMaxLineBytes)
      : fd_(fd), max_line_bytes_(max_line_bytes) {}

  // The next line, or that the stream ended or the deadline passed. A line
  // already buffered is given even when the deadline has passed. Errors: a
  // failed read or poll (kSystem), a line longer than max_line_bytes
  // (kCorrupt); the reader cannot be used after either.
  Result<LineRead> ReadLine(Deadline deadline);

 private:
  int fd_;
  std::size_t max_line_bytes_;
  std::string buffer_;
  std::size_t start_ = 0;    // where the unread part of buffer_ begins
  std::size_t scanned_ = 0;  // buffer_ up to here holds no '\n' after start_
  bool ended_ = false;
};

// Writes `message` and a '\n', all of it, retrying on EINTR and partial
// writes, and waiting for room (poll) on a non-blocking descriptor until
// `deadline`. A reader that has gone is EPIPE (errno_value), so SIGPIPE must
// be ignored; the deadline passing is ETIMEDOUT. Both are kSystem.
Status WriteLine(int fd, std::string_view message, Deadline deadline);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_MCP_JSON_RPC_LINES_H_
