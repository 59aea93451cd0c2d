#include "supervisor/server_directories.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <filesystem>

#include "base/unique_fd.h"
#include "confine/paths.h"

namespace bravebot {
namespace {

// Makes `name` in `parent_fd` if missing and opens it without following a
// link, refusing one that is not a directory of this user's.
Result<UniqueFd> OpenPrivateDirectory(int parent_fd, const std::string& name,
                                      const std::string& shown_path) {
  if (::mkdirat(parent_fd, name.c_str(), 0700) != 0 && errno != EEXIST) {
    return Error::FromErrno("create " + shown_path);
  }
  UniqueFd fd(::openat(parent_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
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

}  // namespace

Result<std::string> PrepareServerHome(const ProfileDirectory& profile,
                                      const std::string& digest_hex) {
  const std::string homes = JoinPath(profile.resolved_path(), "mcp-home");
  Result<UniqueFd> homes_fd = OpenPrivateDirectory(profile.fd(), "mcp-home", homes);
  if (!homes_fd) return homes_fd.error();
  const std::string home = JoinPath(homes, digest_hex);
  Result<UniqueFd> home_fd = OpenPrivateDirectory(homes_fd->get(), digest_hex, home);
  if (!home_fd) return home_fd.error();
  return home;
}

Result<std::string> MakeRunDirectory(const std::string& system_temporary_root) {
  std::string pattern = JoinPath(system_temporary_root, "bravebot-mcp-XXXXXX");
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
  return std::string(resolved);
}

void RemoveRunDirectory(const std::string& path) {
  std::error_code ignored;
  std::filesystem::remove_all(path, ignored);
}

}  // namespace bravebot
