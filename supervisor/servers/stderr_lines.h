// A server's standard error, read as lines to pass on and a tail to keep,
// without I/O. Bounded whatever the server writes: each line shown is at most
// kMaxLineBytes (its end, after "...", where the error usually is), and only
// the last `keep` lines are kept. Lines are escaped, so none can move a
// terminal's cursor.
//
//   StderrLines stderr_lines;
//   for (std::string& line : stderr_lines.Feed(bytes)) Notify(line);
//   ... at its end: stderr_lines.Finish(); Report(stderr_lines.tail());
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_STDERR_LINES_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_STDERR_LINES_H_

#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bravebot {

class StderrLines {
 public:
  static constexpr std::size_t kMaxLineBytes = 1024;

  explicit StderrLines(std::size_t keep = 20) : keep_(keep) {}

  // The whole lines `bytes` ended, as shown; each is kept too.
  std::vector<std::string> Feed(std::string_view bytes);
  // At the end of the stream: the line left without a '\n', as shown.
  std::optional<std::string> Finish();

  // The last lines, oldest first.
  std::vector<std::string> tail() const { return {lines_.begin(), lines_.end()}; }
  // Whether anything at all was written.
  bool wrote_anything() const { return wrote_anything_; }

 private:
  std::string Shown();
  void Keep(const std::string& line);

  std::size_t keep_;
  std::deque<std::string> lines_;
  std::string partial_;  // the line being read, or at least its last kMaxLineBytes
  bool partial_cut_ = false;
  bool wrote_anything_ = false;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_STDERR_LINES_H_
