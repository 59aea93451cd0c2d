#include "supervisor/servers/stderr_lines.h"

#include "base/shown_text.h"

namespace bravebot {

std::vector<std::string> StderrLines::Feed(std::string_view bytes) {
  std::vector<std::string> ended;
  if (!bytes.empty()) wrote_anything_ = true;
  while (!bytes.empty()) {
    const std::size_t newline = bytes.find('\n');
    partial_.append(bytes.substr(0, newline));
    if (partial_.size() > kMaxLineBytes) {
      partial_.erase(0, partial_.size() - kMaxLineBytes);
      partial_cut_ = true;
    }
    if (newline == std::string_view::npos) break;
    std::string line = Shown();
    Keep(line);
    ended.push_back(std::move(line));
    bytes.remove_prefix(newline + 1);
  }
  return ended;
}

std::optional<std::string> StderrLines::Finish() {
  if (partial_.empty() && !partial_cut_) return std::nullopt;
  std::string line = Shown();
  Keep(line);
  return line;
}

std::string StderrLines::Shown() {
  std::string line = (partial_cut_ ? "..." : "") + EscapeControlCharacters(partial_);
  partial_.clear();
  partial_cut_ = false;
  return line;
}

void StderrLines::Keep(const std::string& line) {
  lines_.push_back(line);
  if (lines_.size() > keep_) lines_.pop_front();
}

}  // namespace bravebot
