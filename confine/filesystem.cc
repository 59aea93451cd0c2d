#include "confine/filesystem.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <string_view>

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
  // Looked at first, since opening a device may do what the device does on
  // open; and O_NONBLOCK, so a fifo swapped in meanwhile does not hang us.
  if (KindOf(path, Follow::kYes) != FileKind::kRegular) return std::nullopt;
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  if (!fd.valid()) return std::nullopt;
  struct stat status;
  if (::fstat(fd.get(), &status) != 0 || !S_ISREG(status.st_mode)) return std::nullopt;
  std::string content(limit, '\0');
  ssize_t got = ::read(fd.get(), content.data(), limit);
  if (got < 0) return std::nullopt;
  content.resize(static_cast<size_t>(got));
  return content;
}

std::optional<std::string> RealFileSystem::LinkTarget(const std::string& path) const {
  char target[PATH_MAX];
  ssize_t length = ::readlink(path.c_str(), target, sizeof(target));
  if (length < 0 || static_cast<size_t>(length) == sizeof(target)) return std::nullopt;
  return std::string(target, static_cast<size_t>(length));
}

std::optional<std::string> RealFileSystem::ResolvedPath(const std::string& path) const {
  char resolved[PATH_MAX];
  if (::realpath(path.c_str(), resolved) == nullptr) return std::nullopt;
  return std::string(resolved);
}

std::vector<std::string> RealFileSystem::ListDirectory(const std::string& path) const {
  std::vector<std::string> names;
  DIR* directory = ::opendir(path.c_str());
  if (directory == nullptr) return names;
  while (struct dirent* entry = ::readdir(directory)) {
    std::string_view name = entry->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  ::closedir(directory);
  std::sort(names.begin(), names.end());
  return names;
}

bool RealFileSystem::IsExecutableFile(const std::string& path) const {
  struct stat status;
  return ::stat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode) &&
         (status.st_mode & 0111) != 0;
}

}  // namespace bravebot
