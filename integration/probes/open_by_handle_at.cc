// Tries open_by_handle_at (opening a file by handle, with no path for Landlock
// to judge): must be refused (EPERM).
#include <fcntl.h>

#include "integration/probes/probe.h"

int main() {
  int root = ::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (root < 0) probe::SetupFailed("open / with O_PATH");
  alignas(struct file_handle) char bytes[sizeof(struct file_handle) + 8] = {};
  auto* handle = reinterpret_cast<struct file_handle*>(bytes);
  handle->handle_bytes = 8;
  handle->handle_type = 1;  // FILEID_INO32_GEN: inode 2, the root of most file systems
  bytes[sizeof(struct file_handle)] = 2;
  return probe::Report(::open_by_handle_at(root, handle, O_RDONLY), "open_by_handle_at");
}
