#include "base/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>

namespace bravebot {

namespace {

Result<UniqueFd> OpenLockFile(int dir_fd, const std::string& name, const std::string& shown_path) {
  UniqueFd fd(::openat(dir_fd, name.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600));
  if (!fd.valid()) {
    if (errno == ELOOP) {
      return Error(ErrorCode::kRefused, shown_path + " is a link, and bravebot-mcp never " +
                                            "follows a link in its profile directory: remove it");
    }
    return Error::FromErrno("open " + shown_path);
  }
  return fd;
}

}  // namespace

Result<FileLock> FileLock::Acquire(int dir_fd, const std::string& name,
                                   const std::string& shown_path) {
  BRAVEBOT_ASSIGN_OR_RETURN(UniqueFd fd, OpenLockFile(dir_fd, name, shown_path));
  while (::flock(fd.get(), LOCK_EX) != 0) {
    if (errno != EINTR) return Error::FromErrno("lock " + shown_path);
  }
  return FileLock(std::move(fd));
}

Result<std::optional<FileLock>> FileLock::TryAcquire(int dir_fd, const std::string& name,
                                                     const std::string& shown_path) {
  BRAVEBOT_ASSIGN_OR_RETURN(UniqueFd fd, OpenLockFile(dir_fd, name, shown_path));
  while (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) return std::optional<FileLock>();
    if (errno != EINTR) return Error::FromErrno("lock " + shown_path);
  }
  return std::optional<FileLock>(FileLock(std::move(fd)));
}

}  // namespace bravebot
