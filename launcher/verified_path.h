// A directory found by the parent, and found again by the child as the very
// same one. Both open it with openat2 and RESOLVE_NO_SYMLINKS, so no link in
// any component is followed, and the child compares the device and inode the
// parent saw: a directory a server swapped for another after its reach was
// computed is refused, never entered or made writable.
#ifndef BRAVEBOT_LAUNCHER_VERIFIED_PATH_H_
#define BRAVEBOT_LAUNCHER_VERIFIED_PATH_H_

#include <sys/stat.h>
#include <sys/types.h>

#include <string>

#include "base/result.h"
#include "base/unique_fd.h"

namespace bravebot {

struct VerifiedPath {
  std::string path;
  dev_t device = 0;
  ino_t inode = 0;
};

// In the parent: opens `path` (O_PATH) without following any link, and
// records what it is: which file in `identity`, and its whole status in
// `status`, where given (one fstat for both).
Result<UniqueFd> OpenWithoutLinks(const std::string& path, VerifiedPath* identity = nullptr,
                                  struct stat* status = nullptr);

// In the child, what the parent recorded, as plain data.
struct VerifiedPathStep {
  const char* path;
  dev_t device;
  ino_t inode;
};

// Opens `step.path` (O_PATH | O_DIRECTORY) without following any link and
// checks it is what the parent saw. Returns the descriptor, or -errno (ESTALE
// for another directory). Async-signal-safe.
int OpenVerifiedDirectory(const VerifiedPathStep& step);

// The same with `flags` (0 for a path of any kind): O_PATH is always added.
int OpenVerified(const VerifiedPathStep& step, int flags);

}  // namespace bravebot

#endif  // BRAVEBOT_LAUNCHER_VERIFIED_PATH_H_
