#include "supervisor/mcp/line_splitter.h"

namespace bravebot {

void LineSplitter::Feed(std::string_view bytes) {
  if (overflowed_) return;
  buffer_.append(bytes);
}

std::optional<std::string> LineSplitter::Next() {
  if (overflowed_) return std::nullopt;
  const std::size_t newline = buffer_.find('\n', scanned_);
  if (newline == std::string::npos) {
    scanned_ = buffer_.size();
    if (buffer_.size() - start_ > max_line_bytes_) {
      overflowed_ = true;
      buffer_.clear();
      buffer_.shrink_to_fit();
      start_ = scanned_ = 0;
    }
    return std::nullopt;
  }
  if (newline - start_ > max_line_bytes_) {
    overflowed_ = true;
    buffer_.clear();
    buffer_.shrink_to_fit();
    start_ = scanned_ = 0;
    return std::nullopt;
  }
  std::string line = buffer_.substr(start_, newline - start_);
  start_ = scanned_ = newline + 1;
  // Drop what has been handed out once it is most of the buffer, so a long
  // exchange neither grows the buffer nor copies it on every line.
  if (start_ > buffer_.size() / 2) {
    buffer_.erase(0, start_);
    start_ = scanned_ = 0;
  }
  return line;
}

std::optional<std::string> LineSplitter::Rest() {
  if (overflowed_ || start_ == buffer_.size()) return std::nullopt;
  std::string rest = buffer_.substr(start_);
  buffer_.clear();
  start_ = scanned_ = 0;
  return rest;
}

}  // namespace bravebot
