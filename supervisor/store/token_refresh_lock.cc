#include "supervisor/store/token_refresh_lock.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "base/sha256.h"

namespace bravebot {
namespace {

// The lock file's name: the entry's key hashed, for an alias and an origin
// may hold any character a file name may not.
std::string LockFileName(const StoredToken& entry) {
  std::string key = entry.alias;
  key.append(1, '\0').append(entry.digest).append(1, '\0').append(entry.origin);
  return Sha256Hex(key).substr(0, 32);
}

std::string LinkRefusal(const std::string& shown_path) {
  return shown_path + " is a link, and bravebot-mcp never follows a link in its profile " +
         "directory: remove it";
}

Result<UniqueFd> OpenLocksDirectory(const ProfileDirectory& profile) {
  const std::string shown = profile.PathOf(kTokenRefreshLocksName);
  if (::mkdirat(profile.fd(), kTokenRefreshLocksName, 0700) != 0 && errno != EEXIST) {
    return Error::FromErrno("create " + shown);
  }
  UniqueFd directory(::openat(profile.fd(), kTokenRefreshLocksName,
                              O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (directory.valid()) return directory;
  const int opening = errno;
  // A link is ENOTDIR or ELOOP, as the kernel sees it: told apart here.
  struct stat status {};
  if (::fstatat(profile.fd(), kTokenRefreshLocksName, &status, AT_SYMLINK_NOFOLLOW) == 0) {
    if (S_ISLNK(status.st_mode)) return Error(ErrorCode::kRefused, LinkRefusal(shown));
    if (!S_ISDIR(status.st_mode)) {
      return Error(ErrorCode::kRefused, shown + " is not a directory: move it aside");
    }
  }
  errno = opening;
  return Error::FromErrno("open " + shown);
}

// Whether `lock` is on the file that `name` names now: a start that let go
// of it removed it, and one who waited on it holds a lock on nothing.
bool StillNamed(int directory, const std::string& name, const FileLock& lock) {
  struct stat held {};
  struct stat named {};
  if (::fstat(lock.fd(), &held) != 0) return false;
  if (::fstatat(directory, name.c_str(), &named, AT_SYMLINK_NOFOLLOW) != 0) return false;
  return held.st_dev == named.st_dev && held.st_ino == named.st_ino;
}

}  // namespace

std::string TokenRefreshLockPath(const ProfileDirectory& profile, const StoredToken& entry) {
  return profile.PathOf(std::string(kTokenRefreshLocksName) + "/" + LockFileName(entry));
}

TokenRefreshLock::~TokenRefreshLock() {
  // Removed while still held: whoever opens the name next makes a new file.
  if (lock_ && directory_.valid()) ::unlinkat(directory_.get(), name_.c_str(), 0);
}

Result<std::optional<TokenRefreshLock>> TryLockTokenRefresh(const ProfileDirectory& profile,
                                                            const StoredToken& entry) {
  BRAVEBOT_ASSIGN_OR_RETURN(UniqueFd directory, OpenLocksDirectory(profile));
  const std::string name = LockFileName(entry);
  BRAVEBOT_ASSIGN_OR_RETURN(
      std::optional<FileLock> lock,
      FileLock::TryAcquire(directory.get(), name, TokenRefreshLockPath(profile, entry)));
  if (!lock || !StillNamed(directory.get(), name, *lock)) {
    return std::optional<TokenRefreshLock>();
  }
  return std::optional<TokenRefreshLock>(
      TokenRefreshLock(std::move(directory), name, std::move(*lock)));
}

}  // namespace bravebot
