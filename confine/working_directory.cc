#include "confine/working_directory.h"

#include <array>
#include <string_view>

#include "confine/paths.h"
#include "confine/repository.h"

namespace bravebot {
namespace {

// The system's own trees. /var and /run hold what the system runs and
// reaches (crontabs, dpkg's scripts, systemd's units, the sockets of every
// session's agents), so they are refused whole, but for what /var/tmp holds.
constexpr std::array<std::string_view, 14> kSystemTrees = {
    "/etc",    "/usr",  "/bin", "/sbin", "/lib", "/lib32", "/lib64",
    "/libx32", "/boot", "/dev", "/proc", "/sys", "/run",   "/var"};
constexpr char kSharedTemporaryTree[] = "/var/tmp";

}  // namespace

bool IsSystemDirectory(const std::string& directory) {
  if (directory == "/") return true;
  if (directory != kSharedTemporaryTree && IsSameOrBeneath(directory, kSharedTemporaryTree)) {
    return false;
  }
  for (std::string_view tree : kSystemTrees) {
    if (IsSameOrBeneath(directory, tree)) return true;
  }
  return false;
}

Result<std::string> CheckWorkingDirectory(const std::string& directory,
                                          const WholeDirectoryLimits& limits,
                                          const FileSystemView& fs) {
  std::optional<std::string> resolved = fs.ResolvedPath(directory);
  if (!resolved) {
    return Error(ErrorCode::kRefused,
                 "the directory " + directory + " does not exist: create it first");
  }
  if (fs.KindOf(*resolved, Follow::kYes) != FileKind::kDirectory) {
    return Error(ErrorCode::kRefused, directory + " is not a directory");
  }
  if (IsSystemDirectory(*resolved)) {
    return Error(ErrorCode::kRefused,
                 *resolved +
                     " is one of the system's own directories, which a server run by root would "
                     "rewrite: give the server a directory of its own");
  }
  if (std::optional<std::string> repository = FindEnclosingRepository(*resolved, fs)) {
    std::string where = *repository == *resolved
                            ? *resolved + " is a git repository"
                            : *resolved + " is inside the git repository " + *repository;
    return Error(ErrorCode::kRefused,
                 where +
                     ", and a server may not be given one: git runs the commands a "
                     "repository's configuration and hooks name, so a server that may write them "
                     "may run code unconfined the next time you run git there. Give the server a "
                     "directory of its own, outside every repository");
  }
  if (std::string why = WhyNotWhole(*resolved, limits); !why.empty()) {
    std::string consequence =
        IsSameOrBeneath(*resolved, limits.profile.resolved_path) ||
                IsSameOrBeneath(limits.profile.resolved_path, *resolved)
            ? ", and a server that may write the profile directory could approve itself"
            : ", and a server is never given it to write";
    return Error(ErrorCode::kRefused, *resolved + " is not given to a server, since " + why +
                                          consequence + ": give the server a directory of its own");
  }
  return *resolved;
}

Result<std::string> CheckDeclaredWorkingDirectory(const std::string& declared,
                                                  const WholeDirectoryLimits& limits,
                                                  const FileSystemView& fs) {
  Result<std::string> checked = CheckWorkingDirectory(declared, limits, fs);
  if (!checked) return checked;
  if (*checked != declared) {
    return Error(ErrorCode::kRefused,
                 declared + " now leads through a link to " + *checked +
                     ", and a server's directory is never reached through one (a server that "
                     "may write the directory above it could have planted it): remove the link, "
                     "or declare the server again with --dir " +
                     *checked);
  }
  return checked;
}

}  // namespace bravebot
