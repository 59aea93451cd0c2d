#include "cli/server_homes.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>

#include "base/unique_fd.h"
#include "confine/digest.h"
#include "confine/paths.h"

namespace bravebot {
namespace {

constexpr int kOpenDirectoryHere = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
// A home is a server's to fill: past this depth the rest is not counted
// rather than opened, so that no tree a server made runs us out of
// descriptors or stack.
constexpr int kDeepestCounted = 64;

// The names in the directory `fd`, but "." and "..".
std::vector<std::string> NamesIn(int fd) {
  std::vector<std::string> names;
  const int listing = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  DIR* directory = listing < 0 ? nullptr : ::fdopendir(listing);
  if (directory == nullptr) {
    if (listing >= 0) ::close(listing);
    return names;
  }
  while (const struct dirent* entry = ::readdir(directory)) {
    const std::string name = entry->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  ::closedir(directory);
  return names;
}

// What the entries of the directory `fd` take on disk, each counted where it
// is (a link is the link, never what it names).
std::uint64_t BytesBeneath(int fd, int depth) {
  std::uint64_t bytes = 0;
  for (const std::string& name : NamesIn(fd)) {
    struct stat status;
    if (::fstatat(fd, name.c_str(), &status, AT_SYMLINK_NOFOLLOW) != 0) continue;
    bytes += static_cast<std::uint64_t>(status.st_blocks) * 512;
    if (!S_ISDIR(status.st_mode) || depth >= kDeepestCounted) continue;
    UniqueFd below(::openat(fd, name.c_str(), kOpenDirectoryHere));
    if (below.valid()) bytes += BytesBeneath(below.get(), depth + 1);
  }
  return bytes;
}

}  // namespace

std::vector<ServerHome> FindServerHomes(const ProfileDirectory& profile,
                                        const DeclarationFile& declarations) {
  std::vector<ServerHome> homes;
  UniqueFd all(::openat(profile.fd(), "mcp-home", kOpenDirectoryHere));
  if (!all.valid()) return homes;
  std::vector<std::string> names = NamesIn(all.get());
  std::sort(names.begin(), names.end());
  const std::string directory = JoinPath(profile.resolved_path(), "mcp-home");
  for (const std::string& name : names) {
    UniqueFd home(::openat(all.get(), name.c_str(), kOpenDirectoryHere));
    if (!home.valid()) continue;  // not a directory, or a link: no home
    ServerHome found{name, JoinPath(directory, name), BytesBeneath(home.get(), 1), {}};
    for (const Declaration& declaration : declarations.declarations) {
      if (ComputeDigest(declaration).hex == name) found.aliases.push_back(declaration.alias);
    }
    homes.push_back(std::move(found));
  }
  return homes;
}

std::string DisplaySize(std::uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
  double size = static_cast<double>(bytes) / 1024;
  size_t unit = 0;
  while (size >= 1024 && unit + 1 < std::size(units)) {
    size /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", size, units[unit]);
  return text;
}

}  // namespace bravebot
