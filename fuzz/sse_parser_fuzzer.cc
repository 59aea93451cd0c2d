// Feeds arbitrary bytes to the server-sent-event parser. Beyond not
// crashing: the events must not depend on how the stream was cut into
// reads (the first byte picks the piece size), and none may hold more than
// the limit allows.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "supervisor/mcp/sse_parser.h"

namespace {

constexpr std::size_t kLimit = 4096;

struct Parsed {
  std::vector<bravebot::SseEvent> events;
  bool overflowed = false;
  bool ended_mid_event = false;
  std::string last_event_id;
};

Parsed Parse(std::string_view stream, std::size_t piece) {
  bravebot::SseParser parser(kLimit);
  Parsed parsed;
  for (std::size_t at = 0; at < stream.size(); at += piece) {
    parser.Feed(stream.substr(at, piece));
    while (auto event = parser.Next()) parsed.events.push_back(std::move(*event));
  }
  parsed.overflowed = parser.overflowed();
  parsed.ended_mid_event = parser.EndedMidEvent();
  parsed.last_event_id = parser.last_event_id();
  return parsed;
}

bool Same(const Parsed& a, const Parsed& b) {
  if (a.events.size() != b.events.size() || a.overflowed != b.overflowed) return false;
  for (std::size_t i = 0; i < a.events.size(); ++i) {
    if (a.events[i].data != b.events[i].data || a.events[i].type != b.events[i].type ||
        a.events[i].id != b.events[i].id) {
      return false;
    }
  }
  return a.overflowed ||
         (a.ended_mid_event == b.ended_mid_event && a.last_event_id == b.last_event_id);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::size_t piece = 1 + data[0] % 16;
  std::string_view stream(reinterpret_cast<const char*>(data) + 1, size - 1);
  Parsed whole = Parse(stream, stream.size() + 1);
  Parsed pieces = Parse(stream, piece);
  if (!Same(whole, pieces)) std::abort();
  for (const bravebot::SseEvent& event : whole.events) {
    if (event.data.size() + event.type.size() > kLimit) std::abort();
  }
  return 0;
}
