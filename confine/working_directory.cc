#include "confine/working_directory.h"

#include "confine/paths.h"
#include "confine/repository.h"

namespace bravebot {

Result<std::string> CheckWorkingDirectory(const std::string& directory,
                                          const ProfileLocation& profile,
                                          const FileSystemView& fs) {
  std::optional<std::string> resolved = fs.ResolvedPath(directory);
  if (!resolved) {
    return Error(ErrorCode::kRefused,
                 "the directory " + directory + " does not exist: create it first");
  }
  if (fs.KindOf(*resolved, Follow::kYes) != FileKind::kDirectory) {
    return Error(ErrorCode::kRefused, directory + " is not a directory");
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
  if (IsSameOrBeneath(*resolved, profile.resolved_path) ||
      IsSameOrBeneath(profile.resolved_path, *resolved)) {
    return Error(ErrorCode::kRefused,
                 *resolved + " holds or lies in the profile directory " + profile.path +
                     ", and a server that may write there could approve itself: give the server "
                     "a directory of its own");
  }
  return *resolved;
}

}  // namespace bravebot
