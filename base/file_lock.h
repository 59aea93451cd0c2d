// An advisory exclusive lock (flock) on a lock file, held until the FileLock
// is destroyed. Every writer of the profile directory takes the same one, so
// two commands never interleave a read-modify-write.
//
//   BRAVEBOT_ASSIGN_OR_RETURN(FileLock lock,
//                             FileLock::Acquire(dir.get(), ".lock", "/home/u/.bravebot/.lock"));
#ifndef BRAVEBOT_BASE_FILE_LOCK_H_
#define BRAVEBOT_BASE_FILE_LOCK_H_

#include <optional>
#include <string>

#include "base/result.h"
#include "base/unique_fd.h"

namespace bravebot {

class FileLock {
 public:
  // Opens (creating it 0600) `name` in `dir_fd` without following a link, and
  // waits for the exclusive lock on it.
  static Result<FileLock> Acquire(int dir_fd, const std::string& name,
                                  const std::string& shown_path);

  // The same without waiting: nothing where another holds the lock now, for
  // a caller that waits its own way (on its event loop, for a bounded time).
  static Result<std::optional<FileLock>> TryAcquire(int dir_fd, const std::string& name,
                                                    const std::string& shown_path);

  // The lock file, open: to tell whether it is still the one its name names.
  int fd() const { return fd_.get(); }

 private:
  explicit FileLock(UniqueFd fd) : fd_(std::move(fd)) {}
  UniqueFd fd_;  // closing it releases the lock
};

}  // namespace bravebot

#endif  // BRAVEBOT_BASE_FILE_LOCK_H_
