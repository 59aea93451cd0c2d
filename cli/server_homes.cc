#include "cli/server_homes.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <string_view>
#include <utility>

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

// What a home's files take, each counted once where it has several names.
struct Count {
  std::uint64_t bytes = 0;
  bool whole = true;
  std::set<std::pair<dev_t, ino_t>> seen;  // files of more than one name
};

// Adds what the entries of the directory `fd` take, each counted where it
// is (a link is the link, never what it names), reading and counting as it
// goes: nothing is held for a directory a server filled with names.
void CountBeneath(int fd, int depth, Count& count) {
  const int listing = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  DIR* directory = listing < 0 ? nullptr : ::fdopendir(listing);
  if (directory == nullptr) {
    if (listing >= 0) ::close(listing);
    count.whole = false;
    return;
  }
  while (const struct dirent* entry = ::readdir(directory)) {
    const std::string_view name = entry->d_name;
    if (name == "." || name == "..") continue;
    struct stat status;
    if (::fstatat(fd, entry->d_name, &status, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (!S_ISDIR(status.st_mode) && status.st_nlink > 1 &&
        !count.seen.emplace(status.st_dev, status.st_ino).second) {
      continue;
    }
    count.bytes += static_cast<std::uint64_t>(status.st_blocks) * 512;
    if (!S_ISDIR(status.st_mode)) continue;
    if (depth >= kDeepestCounted) {
      count.whole = false;
      continue;
    }
    UniqueFd below(::openat(fd, entry->d_name, kOpenDirectoryHere));
    if (below.valid()) {
      CountBeneath(below.get(), depth + 1, count);
    } else {
      count.whole = false;
    }
  }
  ::closedir(directory);
}

// The names of the homes: those of mcp-home's directories, sorted.
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
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

std::vector<ServerHome> FindServerHomes(const ProfileDirectory& profile,
                                        const DeclarationFile& declarations) {
  std::vector<ServerHome> homes;
  UniqueFd all(::openat(profile.fd(), "mcp-home", kOpenDirectoryHere));
  if (!all.valid()) return homes;
  const std::vector<std::string> names = NamesIn(all.get());
  const std::string directory = JoinPath(profile.resolved_path(), "mcp-home");
  for (const std::string& name : names) {
    UniqueFd home(::openat(all.get(), name.c_str(), kOpenDirectoryHere));
    if (!home.valid()) continue;  // not a directory, or a link: no home
    Count count;
    CountBeneath(home.get(), 1, count);
    ServerHome found{name, JoinPath(directory, name), count.bytes, count.whole, {}};
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

std::string DisplayHomeSize(const ServerHome& home) {
  return (home.counted_whole ? "" : "at least ") + DisplaySize(home.bytes_on_disk);
}

}  // namespace bravebot
