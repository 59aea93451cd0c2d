// Tries to reopen its parent's descriptors through /proc/<pid>/fd/N (the files
// the supervisor opened): every one must be refused. Listing the numbers is
// not refused (the directory's mode allows it) and is not counted.
#include <dirent.h>

#include "integration/probes/probe.h"

int main() {
  char directory_path[64];
  std::snprintf(directory_path, sizeof(directory_path), "/proc/%d/fd",
                static_cast<int>(probe::TargetProcess()));
  DIR* directory = ::opendir(directory_path);
  if (directory == nullptr) return probe::Denied(probe::Words("list %s", directory_path), errno);
  int tried = 0;
  for (struct dirent* entry; (entry = ::readdir(directory)) != nullptr;) {
    if (entry->d_name[0] == '.') continue;
    const char* path = probe::Words("%s/%s", directory_path, entry->d_name);
    ++tried;
    int fd = ::openat(::dirfd(directory), entry->d_name, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd >= 0) return probe::Allowed(probe::Words("open %s", path));
    std::printf("denied: open %s: %s; ", path, std::strerror(errno));
  }
  ::closedir(directory);
  if (tried == 0) std::printf("denied: %s holds no descriptor\n", directory_path);
  if (tried > 0) std::printf("%d descriptors listed, none reopened\n", tried);
  return probe::kRefused;
}
