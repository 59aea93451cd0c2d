// The supervisor's standard output: every message to the session, one line
// each, written in order as the session reads them. When more than
// kCongestedBytes wait, the output is congested and the supervisor reads its
// servers no faster than the session reads it (backpressure through their
// pipes, not a queue without end); below kClearBytes it flows again.
#ifndef BRAVEBOT_SUPERVISOR_SESSION_SESSION_OUTPUT_H_
#define BRAVEBOT_SUPERVISOR_SESSION_SESSION_OUTPUT_H_

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <cstddef>
#include <functional>
#include <string>

#include "base/bounded_json.h"
#include "supervisor/mcp/json_rpc_lines.h"
#include "supervisor/servers/line_queue.h"
#include "supervisor/session/rpc_messages.h"

namespace bravebot {

// How deep a session reads the supervisor's lines. A server's line is read
// to kMaxJsonDepth, and what it wrote reaches the session inside a message
// of ours, up to two levels deeper: a notification or request of its own as
// server/message's params.message, a call's result as tool/call's
// result.result (one). A session that read them only to kMaxJsonDepth
// would refuse the answer to a call whose result a server nested to the
// bound, and the call would wait without end.
inline constexpr std::size_t kMaxSessionJsonDepth = kMaxJsonDepth + 2;

class SessionOutput {
 public:
  static constexpr std::size_t kCongestedBytes = std::size_t{4} << 20;
  static constexpr std::size_t kClearBytes = std::size_t{1} << 20;

  // Writes to `fd` (taken); `on_congestion(true)` when the output becomes
  // congested, `(false)` when it flows again.
  SessionOutput(boost::asio::io_context& io, int fd, std::function<void(bool)> on_congestion);

  // Queues `message`; false, and nothing queued, when its line would be
  // longer than kMaxLineBytes, which no session reads.
  bool Send(const Json& message);
  // The same for a message already written as one line of JSON (no '\n').
  bool SendLine(std::string line);
  bool congested() const { return congested_; }
  // Calls `done` once everything queued is written (or cannot be).
  void WhenWritten(std::function<void()> done);
  // Whether the session closed its end: nothing more can reach it.
  bool closed() const { return closed_; }

 private:
  void WriteNext();
  void Written();

  boost::asio::posix::stream_descriptor fd_;
  std::function<void(bool)> on_congestion_;
  LineQueue queued_;
  bool writing_ = false;
  bool congested_ = false;
  bool closed_ = false;
  std::vector<std::function<void()>> when_written_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SESSION_SESSION_OUTPUT_H_
