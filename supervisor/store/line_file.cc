#include "supervisor/store/line_file.h"

namespace bravebot {

Error UnreadableLine(const std::string& shown_path, size_t line_number, const std::string& why,
                     const std::string& afterwards) {
  return Error(ErrorCode::kCorrupt, shown_path + " cannot be read at line " +
                                        std::to_string(line_number) + ": " + why +
                                        ". It was left as it is: mend it by hand, or move it "
                                        "away to " +
                                        afterwards);
}

Status ForEachLine(std::string_view text, std::string_view header, const std::string& shown_path,
                   const std::string& afterwards,
                   const std::function<Status(std::string_view line, size_t number)>& entry) {
  size_t line_number = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    std::string_view line = text.substr(start, end == std::string_view::npos ? end : end - start);
    start = end == std::string_view::npos ? text.size() : end + 1;
    ++line_number;
    if (line_number == 1) {
      if (line != header) {
        return UnreadableLine(shown_path, 1,
                              "it does not start with the line \"" + std::string(header) + "\"",
                              afterwards);
      }
      continue;
    }
    if (line.empty()) continue;
    if (Status status = entry(line, line_number); !status) return status;
  }
  if (line_number == 0) return UnreadableLine(shown_path, 1, "it is empty", afterwards);
  return {};
}

}  // namespace bravebot
