#include "supervisor/store/server_directories.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <vector>

#include "base/unique_fd.h"
#include "confine/paths.h"

namespace bravebot {
namespace {

constexpr char kRunDirectoryPrefix[] = "bravebot-mcp-";
constexpr int kOpenDirectory = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

// Makes `name` in `parent_fd` if missing and opens it without following a
// link, refusing one that is not a directory of this user's.
Result<UniqueFd> OpenPrivateDirectory(int parent_fd, const std::string& name,
                                      const std::string& shown_path) {
  if (::mkdirat(parent_fd, name.c_str(), 0700) != 0 && errno != EEXIST) {
    return Error::FromErrno("create " + shown_path);
  }
  UniqueFd fd(::openat(parent_fd, name.c_str(), kOpenDirectory));
  if (!fd.valid()) {
    if (errno == ELOOP || errno == ENOTDIR) {
      return Error(ErrorCode::kRefused, shown_path +
                                            " is a link or not a directory, and a "
                                            "server's home is never reached through "
                                            "one: remove it");
    }
    return Error::FromErrno("open " + shown_path);
  }
  struct stat status;
  if (::fstat(fd.get(), &status) != 0) return Error::FromErrno("stat " + shown_path);
  if (status.st_uid != ::geteuid()) {
    return Error(ErrorCode::kRefused,
                 shown_path +
                     " belongs to another user, and a server's home must be yours: "
                     "remove it");
  }
  return fd;
}

// Removes every entry of the directory `fd` but directories, and names one
// directory left in it, if any.
std::optional<std::string> EmptyAllButOneSubdirectory(int fd) {
  int listing = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  DIR* directory = listing < 0 ? nullptr : ::fdopendir(listing);
  if (directory == nullptr) {
    if (listing >= 0) ::close(listing);
    return std::nullopt;
  }
  ::rewinddir(directory);
  std::optional<std::string> subdirectory;
  while (struct dirent* entry = ::readdir(directory)) {
    const std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    if (::unlinkat(fd, name.c_str(), 0) == 0) continue;
    if (errno == EISDIR || errno == EPERM) subdirectory = name;
  }
  ::closedir(directory);
  return subdirectory;
}

}  // namespace

Result<std::string> PrepareServerHome(const ProfileDirectory& profile,
                                      const std::string& digest_hex) {
  const std::string homes = JoinPath(profile.resolved_path(), "mcp-home");
  BRAVEBOT_ASSIGN_OR_RETURN(UniqueFd homes_fd,
                            OpenPrivateDirectory(profile.fd(), "mcp-home", homes));
  const std::string home = JoinPath(homes, digest_hex);
  BRAVEBOT_ASSIGN_OR_RETURN(UniqueFd home_fd,
                            OpenPrivateDirectory(homes_fd.get(), digest_hex, home));
  return home;
}

Result<RunDirectory> MakeRunDirectory(const std::string& system_temporary_root) {
  std::string pattern =
      JoinPath(system_temporary_root, std::string(kRunDirectoryPrefix) + "XXXXXX");
  if (::mkdtemp(pattern.data()) == nullptr) {
    return Error::FromErrno("create a temporary directory in " + system_temporary_root);
  }
  // Where it is, without links: its Landlock rule is opened without following one.
  char resolved[PATH_MAX];
  if (::realpath(pattern.c_str(), resolved) == nullptr) {
    Error error = Error::FromErrno("find " + pattern);
    ::rmdir(pattern.c_str());
    return error;
  }
  RunDirectory made{resolved, UniqueFd(::open(resolved, kOpenDirectory))};
  // Held at once: a sweep passes over one this young, and over a held one.
  if (!made.hold.valid() || ::flock(made.hold.get(), LOCK_EX | LOCK_NB) != 0) {
    Error error = Error::FromErrno("hold the temporary directory " + made.path);
    ::rmdir(made.path.c_str());
    return error;
  }
  return made;
}

void SweepRunDirectories(const std::string& system_temporary_root, std::chrono::seconds min_age) {
  UniqueFd root(::open(system_temporary_root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  int listing = root.valid() ? ::fcntl(root.get(), F_DUPFD_CLOEXEC, 0) : -1;
  DIR* directory = listing < 0 ? nullptr : ::fdopendir(listing);
  if (directory == nullptr) {
    if (listing >= 0) ::close(listing);
    return;
  }
  const auto now = std::chrono::system_clock::now();
  std::vector<std::string> left;
  while (struct dirent* entry = ::readdir(directory)) {
    const std::string_view name = entry->d_name;
    if (!name.starts_with(kRunDirectoryPrefix) ||
        name.size() != std::string_view(kRunDirectoryPrefix).size() + 6) {
      continue;
    }
    struct stat status;
    if (::fstatat(root.get(), entry->d_name, &status, AT_SYMLINK_NOFOLLOW) != 0 ||
        !S_ISDIR(status.st_mode) || status.st_uid != ::geteuid() ||
        now - std::chrono::system_clock::from_time_t(status.st_mtime) < min_age) {
      continue;
    }
    left.emplace_back(name);
  }
  ::closedir(directory);
  for (const std::string& name : left) {
    UniqueFd held(::openat(root.get(), name.c_str(), kOpenDirectory));
    // A live run holds its own; a lock taken here is held until it is gone,
    // so that two sweeps never remove one together.
    struct stat status;
    if (!held.valid() || ::fstat(held.get(), &status) != 0 || status.st_uid != ::geteuid() ||
        ::flock(held.get(), LOCK_EX | LOCK_NB) != 0) {
      continue;
    }
    RemoveRunDirectory(JoinPath(system_temporary_root, name));
  }
}

void RemoveRunDirectory(const std::string& path) {
  // Depth first, holding one descriptor at a time, so that a tree deeper than
  // the descriptors this process may open (a server's to make) goes too; the
  // way down is kept by name, and the way up is "..", which nothing changes
  // once the server has stopped. Nothing is followed through a link, and a
  // directory the server made unreadable is made readable first.
  ::chmod(path.c_str(), 0700);
  UniqueFd current(::open(path.c_str(), kOpenDirectory));
  if (!current.valid()) return;
  std::vector<std::string> way_down;
  for (;;) {
    std::optional<std::string> subdirectory = EmptyAllButOneSubdirectory(current.get());
    if (subdirectory) {
      ::fchmodat(current.get(), subdirectory->c_str(), 0700, 0);
      UniqueFd below(::openat(current.get(), subdirectory->c_str(), kOpenDirectory));
      if (!below.valid()) return;
      way_down.push_back(*subdirectory);
      current = std::move(below);
      continue;
    }
    if (way_down.empty()) break;
    UniqueFd above(::openat(current.get(), "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!above.valid()) return;
    // One that cannot go would be found again and again: give up on it.
    if (::unlinkat(above.get(), way_down.back().c_str(), AT_REMOVEDIR) != 0) return;
    way_down.pop_back();
    current = std::move(above);
  }
  current.reset();
  ::rmdir(path.c_str());
}

}  // namespace bravebot
