// Server-sent events out of a byte stream, without I/O, as the HTML
// standard's event-stream format reads them: a streamable-HTTP MCP server
// answers a POST, or sends what it has to say on its own, as such a stream.
// Lines end with CRLF, LF or CR, a line end or a field may be split across
// reads, `data:` lines are joined with '\n', `id` and `retry` are kept,
// comments (`:` first) are skipped, and an event is dispatched at its blank
// line. Bounded: an event that grows past the limit overflows the parser,
// which then gives nothing more.
//
//   SseParser stream;
//   stream.Feed(std::string_view(buffer, got));
//   while (std::optional<SseEvent> event = stream.Next()) Take(event->data);
//   if (stream.overflowed()) Fail("an event longer than 16 MiB");
//   // at the end of the body: stream.EndedMidEvent() says it was cut
#ifndef BRAVEBOT_SUPERVISOR_MCP_SSE_PARSER_H_
#define BRAVEBOT_SUPERVISOR_MCP_SSE_PARSER_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>

#include "supervisor/mcp/json_rpc_lines.h"

namespace bravebot {

struct SseEvent {
  std::string type = "message";  // its `event` field, "message" where it had none
  std::string data;              // its `data` lines, joined with '\n'
  std::string id;                // the last event id as it stood at its dispatch
};

// The longest `id` kept. Every event dispatched carries the last id, and
// so does a reconnection's Last-Event-ID header: an id of 16 MiB followed
// by events of a few bytes each (`data:x`, a blank line) would have each
// event copy it, gigabytes from one read of 16 KiB. A longer id is ignored,
// as one holding NUL is; no service needs more than a few dozen bytes.
inline constexpr std::size_t kMaxEventIdBytes = 1024;

class SseParser {
 public:
  explicit SseParser(std::size_t max_event_bytes = kMaxLineBytes)
      : max_event_bytes_(max_event_bytes) {}

  void Feed(std::string_view bytes);
  // The next event dispatched, in the order the stream sent them.
  std::optional<SseEvent> Next();

  // Whether the bytes fed so far end inside an event: a field, or part of a
  // line, came after the last blank line. At the end of a body, the stream
  // was cut in the middle of an event, which is never dispatched.
  bool EndedMidEvent() const { return event_started_ || !line_.empty(); }
  bool overflowed() const { return overflowed_; }
  // The bytes it holds of an event not yet whole.
  std::size_t held_bytes() const { return line_.size() + type_.size() + data_.size(); }
  // What a reconnection sends as Last-Event-ID: "" before any `id`.
  const std::string& last_event_id() const { return last_event_id_; }
  // The reconnection time the stream asked for, in milliseconds.
  std::optional<std::uint64_t> retry_milliseconds() const { return retry_milliseconds_; }

 private:
  void TakeLine();
  void TakeField(std::string_view name, std::string_view value);
  void Dispatch();

  std::size_t max_event_bytes_;
  std::string line_;            // the line being read
  bool after_cr_ = false;       // the last byte was a CR: an LF now ends nothing
  bool first_line_ = true;      // a byte-order mark may open it
  bool event_started_ = false;  // a field came since the last blank line
  std::string type_;            // the event type buffer
  std::string data_;            // the data buffer
  std::string last_event_id_;
  std::optional<std::uint64_t> retry_milliseconds_;
  std::deque<SseEvent> dispatched_;
  bool overflowed_ = false;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_MCP_SSE_PARSER_H_
