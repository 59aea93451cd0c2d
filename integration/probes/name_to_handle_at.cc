// Tries name_to_handle_at on its home (the first half of opening files without
// a path walk): must be refused (EPERM).
#include <fcntl.h>

#include "integration/probes/probe.h"

int main() {
  const char* home = probe::Need("HOME");
  alignas(struct file_handle) char bytes[sizeof(struct file_handle) + MAX_HANDLE_SZ] = {};
  auto* handle = reinterpret_cast<struct file_handle*>(bytes);
  handle->handle_bytes = MAX_HANDLE_SZ;
  int mount_id = 0;
  return probe::Report(::name_to_handle_at(AT_FDCWD, home, handle, &mount_id, 0),
                       probe::Words("name_to_handle_at %s", home));
}
