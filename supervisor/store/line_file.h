// The text files of ours made of lines (mcp-approved, mcp-projects,
// mcp-tools): a header line naming the format, then one entry a line. A line
// that cannot be read makes the whole file unreadable, named by its line and
// never quoted, and it is left as it is.
#ifndef BRAVEBOT_SUPERVISOR_STORE_LINE_FILE_H_
#define BRAVEBOT_SUPERVISOR_STORE_LINE_FILE_H_

#include <functional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace bravebot {

// kCorrupt: "PATH cannot be read at line N: WHY. It was left as it is: mend it
// by hand, or move it away to AFTERWARDS".
Error UnreadableLine(const std::string& shown_path, size_t line_number, const std::string& why,
                     const std::string& afterwards);

// Checks the header, then calls `entry` with each further line that is not
// empty and its number, stopping at the first error. An empty file, or one
// without the header, is unreadable.
Status ForEachLine(std::string_view text, std::string_view header, const std::string& shown_path,
                   const std::string& afterwards,
                   const std::function<Status(std::string_view line, size_t number)>& entry);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_STORE_LINE_FILE_H_
