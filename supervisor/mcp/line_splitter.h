// Lines out of a byte stream, without I/O: bytes go in as they are read, whole
// lines come out. Bounded: a line that runs past its limit before its '\n'
// overflows the splitter, which then gives nothing more, so a server that
// writes without end costs at most the limit.
//
//   LineSplitter lines;
//   lines.Feed(std::string_view(buffer, got));
//   while (auto line = lines.Next()) Take(*line);
//   if (lines.overflowed()) Stop("a line longer than 16 MiB");
#ifndef BRAVEBOT_SUPERVISOR_MCP_LINE_SPLITTER_H_
#define BRAVEBOT_SUPERVISOR_MCP_LINE_SPLITTER_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "supervisor/mcp/json_rpc_lines.h"

namespace bravebot {

class LineSplitter {
 public:
  explicit LineSplitter(std::size_t max_line_bytes = kMaxLineBytes)
      : max_line_bytes_(max_line_bytes) {}

  void Feed(std::string_view bytes);
  // The next whole line, without its '\n'.
  std::optional<std::string> Next();
  // At the end of the stream: the bytes left without a '\n', as a last line.
  std::optional<std::string> Rest();

  bool overflowed() const { return overflowed_; }
  std::size_t max_line_bytes() const { return max_line_bytes_; }

 private:
  std::size_t max_line_bytes_;
  std::string buffer_;
  std::size_t start_ = 0;    // where the unread part of buffer_ begins
  std::size_t scanned_ = 0;  // buffer_ up to here holds no '\n' after start_
  bool overflowed_ = false;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_MCP_LINE_SPLITTER_H_
