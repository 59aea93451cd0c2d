#include "supervisor/mcp/sse_parser.h"

#include <algorithm>
#include <charconv>

namespace bravebot {
namespace {

constexpr std::string_view kByteOrderMark = "\xef\xbb\xbf";

}  // namespace

void SseParser::Feed(std::string_view bytes) {
  for (char byte : bytes) {
    if (overflowed_) return;
    if (byte == '\n' && after_cr_) {  // the LF of a CRLF whose CR ended the line
      after_cr_ = false;
      continue;
    }
    after_cr_ = byte == '\r';
    if (byte == '\n' || byte == '\r') {
      TakeLine();
      continue;
    }
    line_ += byte;
    if (line_.size() + data_.size() + type_.size() > max_event_bytes_) overflowed_ = true;
  }
}

std::optional<SseEvent> SseParser::Next() {
  if (dispatched_.empty()) return std::nullopt;
  SseEvent event = std::move(dispatched_.front());
  dispatched_.pop_front();
  return event;
}

void SseParser::TakeLine() {
  std::string_view line = line_;
  if (first_line_ && line.substr(0, kByteOrderMark.size()) == kByteOrderMark) {
    line.remove_prefix(kByteOrderMark.size());
  }
  first_line_ = false;
  if (line.empty()) {
    Dispatch();
  } else if (line.front() != ':') {  // a comment is skipped
    const std::size_t colon = line.find(':');
    std::string_view name = line.substr(0, colon);
    std::string_view value = colon == std::string_view::npos ? "" : line.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    event_started_ = true;
    TakeField(name, value);
  }
  line_.clear();
}

void SseParser::TakeField(std::string_view name, std::string_view value) {
  if (name == "event") {
    type_ = std::string(value);
  } else if (name == "data") {
    data_.append(value);
    data_ += '\n';
  } else if (name == "id") {
    // An id holding NUL is ignored, as the standard says; one past
    // kMaxEventIdBytes too, since every event would carry a copy of it.
    if (value.find('\0') == std::string_view::npos && value.size() <= kMaxEventIdBytes) {
      last_event_id_ = std::string(value);
    }
  } else if (name == "retry") {
    std::uint64_t milliseconds = 0;
    const bool digits = !value.empty() && std::all_of(value.begin(), value.end(),
                                                      [](char c) { return c >= '0' && c <= '9'; });
    auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), milliseconds);
    if (digits && error == std::errc() && end == value.data() + value.size()) {
      retry_milliseconds_ = milliseconds;
    }
  }
  // Any other field is ignored.
}

void SseParser::Dispatch() {
  event_started_ = false;
  if (data_.empty()) {  // an event with no data line is not dispatched
    type_.clear();
    return;
  }
  data_.pop_back();  // the '\n' after the last data line
  SseEvent event;
  if (!type_.empty()) event.type = std::move(type_);
  event.data = std::move(data_);
  event.id = last_event_id_;
  dispatched_.push_back(std::move(event));
  type_.clear();
  data_.clear();
}

}  // namespace bravebot
