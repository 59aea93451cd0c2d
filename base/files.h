// Reading and atomically replacing a file inside a directory held open, never
// following a link in the last component. A file is read only where it is a
// regular file no larger than its bound, so a sparse file of gigabytes, a
// fifo or a device put where a file is expected costs nothing and waits for
// nothing.
//
//   constexpr FileBound kBound{16 << 20, "a file of the profile directory"};
//   auto text = ReadFileAt(dir.get(), "mcp.json", path, kBound);  // kNotFound if absent
//   auto ok = ReplaceFileAt(dir.get(), "mcp.json", json, 0600, path);
#ifndef BRAVEBOT_BASE_FILES_H_
#define BRAVEBOT_BASE_FILES_H_

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace bravebot {

// The most a file may hold before it is refused unread, and what such a file
// is called where it is: {4 << 20, "a settings file"} refuses a larger one
// as "PATH is 2.1 GiB, more than a settings file may be (4 MiB)".
struct FileBound {
  std::uint64_t most_bytes;
  const char* kind;
};

// A size as a person reads it: "512 bytes", "4 MiB", "2.1 GiB".
std::string ShownByteCount(std::uint64_t bytes);

// The whole content of `name` in `dir_fd`. A missing file is kNotFound. A
// link there is refused rather than followed (kRefused), and so is anything
// but a regular file (a directory, a fifo, a device), which is looked at
// without being opened. A file over `bound` is refused (kCorrupt), judged by
// its size before it is read and again while it is, since it may grow.
// `shown_path` names the file in messages, each a whole sentence.
Result<std::string> ReadFileAt(int dir_fd, const std::string& name, const std::string& shown_path,
                               const FileBound& bound);

// The whole of the regular file at `path`, a link followed, or nothing where
// it is missing. Anything but a regular file is refused unopened (kCorrupt,
// "is a fifo, not a regular file"), as is a file over `bound` (kCorrupt, "is
// 2.1 GiB, more than a settings file may be (4 MiB)"); one that cannot be
// read is kSystem, "cannot be read (WHY)". Each message is the predicate of
// a sentence whose subject, the path, the caller names.
Result<std::optional<std::string>> ReadWholeFile(const std::string& path, const FileBound& bound);

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
