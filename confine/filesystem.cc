#include "confine/filesystem.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>

#include "base/unique_fd.h"

namespace bravebot {

FileKind RealFileSystem::KindOf(const std::string& path, Follow follow) const {
  struct stat status;
  int result =
      follow == Follow::kYes ? ::stat(path.c_str(), &status) : ::lstat(path.c_str(), &status);
  if (result != 0) return FileKind::kMissing;
  if (S_ISREG(status.st_mode)) return FileKind::kRegular;
  if (S_ISDIR(status.st_mode)) return FileKind::kDirectory;
  if (S_ISLNK(status.st_mode)) return FileKind::kLink;
  return FileKind::kOther;
}

std::optional<std::string> RealFileSystem::ReadPrefix(const std::string& path, size_t limit) const {
  // O_NONBLOCK: a fifo planted where a file was expected must not hang us.
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (!fd.valid()) return std::nullopt;
  struct stat status;
  if (::fstat(fd.get(), &status) != 0 || !S_ISREG(status.st_mode)) return std::nullopt;
  std::string content(limit, '\0');
  ssize_t got = ::read(fd.get(), content.data(), limit);
  if (got < 0) return std::nullopt;
  content.resize(static_cast<size_t>(got));
  return content;
}

std::optional<std::string> RealFileSystem::ResolvedPath(const std::string& path) const {
  char resolved[PATH_MAX];
  if (::realpath(path.c_str(), resolved) == nullptr) return std::nullopt;
  return std::string(resolved);
}

}  // namespace bravebot
