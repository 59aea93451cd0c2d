#include "supervisor/store/server_directories.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <condition_variable>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#include "base/unique_fd.h"
#include "confine/paths.h"

namespace bravebot {
namespace {

constexpr int kOpenDirectory = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

// Gives this user back its rights on the directory `name`, which a server
// may have taken away, without following a link. Whether it could is not
// asked here: the open that follows says.
void GiveBackRights(int directory, const char* name) {
  [[maybe_unused]] const int changed = ::fchmodat(directory, name, 0700, AT_SYMLINK_NOFOLLOW);
}

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

// At most this many names of subdirectories are kept for one directory at
// a time, so that a directory of millions costs little memory: it is listed
// again once those are gone.
constexpr std::size_t kNamesAtOnce = 4096;

// The subdirectories of one directory on the way down not yet removed, and
// whether it holds more than were named.
struct Level {
  std::vector<std::string> subdirectories;
  bool more = false;
  dev_t device = 0;
  ino_t inode = 0;
};

// Removes every entry of the directory `fd` but directories, and names the
// directories left in it, kNamesAtOnce at most.
Level EmptyAllButSubdirectories(int fd) {
  Level level;
  struct stat status;
  if (::fstat(fd, &status) == 0) {
    level.device = status.st_dev;
    level.inode = status.st_ino;
  }
  int listing = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  DIR* directory = listing < 0 ? nullptr : ::fdopendir(listing);
  if (directory == nullptr) {
    if (listing >= 0) ::close(listing);
    return level;
  }
  ::rewinddir(directory);
  while (struct dirent* entry = ::readdir(directory)) {
    const std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    if (::unlinkat(fd, name.c_str(), 0) == 0) continue;
    if (errno != EISDIR && errno != EPERM) continue;
    if (level.subdirectories.size() < kNamesAtOnce) {
      level.subdirectories.push_back(name);
    } else {
      level.more = true;
    }
  }
  ::closedir(directory);
  return level;
}

// Starts `work` on a thread of its own, left to run. The thread takes no
// signal: the process's own thread for them waits for them. False where no
// thread could be made.
bool StartThreadWithoutSignals(std::function<void()> work) {
  sigset_t all, before;
  ::sigfillset(&all);
  ::pthread_sigmask(SIG_SETMASK, &all, &before);
  bool started = true;
  try {
    std::thread(std::move(work)).detach();
  } catch (const std::system_error&) {
    started = false;
  }
  ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
  return started;
}

// The removals under way on threads of their own.
struct Removals {
  std::mutex mutex;
  std::condition_variable changed;
  int count = 0;
};

// Never destroyed: a removal thread may still use it while the process ends.
Removals& UnderWay() {
  static Removals* removals = new Removals;
  return *removals;
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
  const std::time_t now = std::time(nullptr);
  std::vector<std::string> left;
  while (struct dirent* entry = ::readdir(directory)) {
    const std::string_view name = entry->d_name;
    if (!name.starts_with(kRunDirectoryPrefix) ||
        name.size() != std::string_view(kRunDirectoryPrefix).size() + 6) {
      continue;
    }
    struct stat status;
    if (::fstatat(root.get(), entry->d_name, &status, AT_SYMLINK_NOFOLLOW) != 0 ||
        !S_ISDIR(status.st_mode) || status.st_uid != ::geteuid()) {
      continue;
    }
    // Changed in the last minute: perhaps made a moment ago and about to be
    // held. A time in the future is one a server set, not a young one.
    if (status.st_mtime <= now + 1 && now - status.st_mtime < min_age.count()) continue;
    left.emplace_back(name);
  }
  ::closedir(directory);
  for (const std::string& name : left) {
    UniqueFd held(::openat(root.get(), name.c_str(), kOpenDirectory));
    if (!held.valid() && errno == EACCES) {
      // Its server took its own rights on it away; it is this user's (above).
      GiveBackRights(root.get(), name.c_str());
      held.reset(::openat(root.get(), name.c_str(), kOpenDirectory));
    }
    // A live run holds its own; a lock taken here is held until it is gone,
    // so that two sweeps never remove one together.
    struct stat status;
    if (!held.valid() || ::fstat(held.get(), &status) != 0 || status.st_uid != ::geteuid() ||
        ::flock(held.get(), LOCK_EX | LOCK_NB) != 0) {
      continue;
    }
    // One that cannot go (a file made immutable) holds up none of the others.
    RemoveRunDirectory(JoinPath(system_temporary_root, name));
  }
}

void SweepRunDirectoriesInBackground(const std::string& system_temporary_root) {
  // Off the start: a server can leave what takes minutes to remove (a file
  // of a million extents, a tree a million wide).
  StartThreadWithoutSignals(
      [system_temporary_root] { SweepRunDirectories(system_temporary_root); });
}

void RemoveRunDirectoryInBackground(RunDirectory run) {
  if (run.path.empty()) return;
  Removals& removals = UnderWay();
  {
    std::lock_guard<std::mutex> lock(removals.mutex);
    ++removals.count;
  }
  // Shared, so that where no thread can be made it is still here to remove.
  auto held = std::make_shared<RunDirectory>(std::move(run));
  auto remove = [held] {
    RemoveRunDirectory(held->path);
    held->hold.reset();
    Removals& ended = UnderWay();
    std::lock_guard<std::mutex> lock(ended.mutex);
    --ended.count;
    ended.changed.notify_all();
  };
  if (!StartThreadWithoutSignals(remove)) remove();
}

bool AwaitRunDirectoryRemovals(std::chrono::milliseconds timeout) {
  Removals& removals = UnderWay();
  std::unique_lock<std::mutex> lock(removals.mutex);
  return removals.changed.wait_for(lock, timeout, [&] { return removals.count == 0; });
}

bool RemoveRunDirectory(const std::string& path) {
  // Depth first, holding one descriptor at a time, so that a tree deeper than
  // the descriptors this process may open (a server's to make) goes too; the
  // way down is kept by name, and the way up is "..", checked to be the
  // directory come down from (a process of the run still alive could have
  // moved the one below elsewhere meanwhile). Each directory is listed once
  // per kNamesAtOnce of its subdirectories, so that many take as long as
  // their number, not its square. Nothing is followed through a link, and a
  // directory the server made unreadable is made readable first.
  GiveBackRights(AT_FDCWD, path.c_str());
  UniqueFd current(::open(path.c_str(), kOpenDirectory));
  if (!current.valid()) return false;
  std::vector<std::string> way_down;
  std::vector<Level> levels = {EmptyAllButSubdirectories(current.get())};
  for (;;) {
    Level& level = levels.back();
    if (level.subdirectories.empty() && level.more)
      level = EmptyAllButSubdirectories(current.get());
    if (!level.subdirectories.empty()) {
      const std::string name = std::move(level.subdirectories.back());
      level.subdirectories.pop_back();
      GiveBackRights(current.get(), name.c_str());
      UniqueFd below(::openat(current.get(), name.c_str(), kOpenDirectory));
      // One that cannot be opened is left, with the directories above it.
      if (!below.valid()) continue;
      way_down.push_back(name);
      current = std::move(below);
      levels.push_back(EmptyAllButSubdirectories(current.get()));
      continue;
    }
    levels.pop_back();
    if (way_down.empty()) {
      current.reset();
      return ::rmdir(path.c_str()) == 0;
    }
    UniqueFd above(::openat(current.get(), "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    struct stat status;
    if (!above.valid() || ::fstat(above.get(), &status) != 0 ||
        status.st_dev != levels.back().device || status.st_ino != levels.back().inode) {
      return false;
    }
    ::unlinkat(above.get(), way_down.back().c_str(), AT_REMOVEDIR);
    way_down.pop_back();
    current = std::move(above);
  }
}

}  // namespace bravebot
