#include "supervisor/store/profile_directory.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>

#include "confine/paths.h"

namespace bravebot {
namespace {

constexpr char kLockName[] = ".lock";

}  // namespace

std::optional<std::string> LocateProfileDirectory(const EnvironmentLookup& getenv,
                                                  const std::string& cwd) {
  const char* bravebot_home = getenv("BRAVEBOT_HOME");
  if (bravebot_home != nullptr && *bravebot_home != '\0') return AbsolutePath(bravebot_home, cwd);
  const char* home = getenv("HOME");
  if (home != nullptr && *home != '\0') return JoinPath(AbsolutePath(home, cwd), ".bravebot");
  return std::nullopt;
}

std::string NoProfileDirectoryMessage() {
  return "this machine names no profile directory (neither BRAVEBOT_HOME nor HOME is set), so "
         "nothing is declared and nothing can be: set HOME, or BRAVEBOT_HOME to the directory "
         "to keep declarations in";
}

Result<ProfileDirectory> ProfileDirectory::Open(const std::string& path, Create create) {
  if (create == Create::kYes && ::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) {
    return Error::FromErrno("create the profile directory " + path);
  }
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd.valid()) {
    if (errno == ENOENT) {
      return Error(ErrorCode::kNotFound, "the profile directory " + path + " does not exist");
    }
    return Error::FromErrno("open the profile directory " + path);
  }
  struct stat status;
  if (::fstat(fd.get(), &status) != 0) return Error::FromErrno("stat " + path);
  if (status.st_uid != ::geteuid()) {
    return Error(ErrorCode::kRefused, "the profile directory " + path +
                                          " belongs to another user: use a directory of your own");
  }
  if ((status.st_mode & 077) != 0 && create == Create::kYes && ::fchmod(fd.get(), 0700) != 0) {
    return Error::FromErrno("make " + path + " private (chmod 0700)");
  }
  char resolved[PATH_MAX];
  if (::realpath(path.c_str(), resolved) == nullptr) return Error::FromErrno("resolve " + path);
  return ProfileDirectory(std::move(fd), path, resolved);
}

Result<ProfileDirectory> ProfileDirectory::Duplicate() const {
  UniqueFd copy(::fcntl(fd_.get(), F_DUPFD_CLOEXEC, 0));
  if (!copy.valid()) return Error::FromErrno("open the profile directory " + path_ + " again");
  return ProfileDirectory(std::move(copy), path_, resolved_path_);
}

std::string ProfileDirectory::PathOf(const std::string& name) const {
  return JoinPath(path_, name);
}

Result<FileLock> ProfileDirectory::Lock() const {
  return FileLock::Acquire(fd(), kLockName, PathOf(kLockName));
}

}  // namespace bravebot
