// Reading and atomically replacing a file inside a directory held open, never
// following a link in the last component.
//
//   auto text = ReadFileAt(dir.get(), "mcp.json");       // kNotFound if absent
//   auto ok = ReplaceFileAt(dir.get(), "mcp.json", json, 0600);
#ifndef BRAVEBOT_BASE_FILES_H_
#define BRAVEBOT_BASE_FILES_H_

#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace bravebot {

// The whole content of `name` in `dir_fd`. A link there is refused rather than
// followed (kRefused), and a missing file is kNotFound. `shown_path` names the
// file in messages.
Result<std::string> ReadFileAt(int dir_fd, const std::string& name, const std::string& shown_path);

// The whole of the regular file at `path`, or nothing where it is missing.
// Opened without blocking, so a fifo put there does not hang the reader: it
// is refused as not a regular file (kCorrupt). A file over `max_size` bytes
// is refused (kCorrupt) with `too_large` as the message; one that cannot be
// read is kSystem, "cannot be read (WHY)". Each message is the predicate of
// a sentence whose subject, the path, the caller names.
Result<std::optional<std::string>> ReadWholeFile(const std::string& path, size_t max_size,
                                                 const std::string& too_large);

// Replaces `name` in `dir_fd` with `content` so that a reader, or a crash at
// any moment, sees either the old file whole or the new one whole: a temporary
// file beside it is written, flushed, given `mode` and renamed over it, then the
// directory is flushed. A link or anything but a regular file at `name` is
// refused and left as it is.
Status ReplaceFileAt(int dir_fd, const std::string& name, std::string_view content, mode_t mode,
                     const std::string& shown_path);

// Removes the temporary files ReplaceFileAt leaves when a writer is killed
// midway. Call it only while holding the lock every writer of `name` takes.
void RemoveAbandonedTemporaries(int dir_fd, const std::string& name);

}  // namespace bravebot

#endif  // BRAVEBOT_BASE_FILES_H_
