// Tries process_vm_readv on its parent: must be refused. EFAULT would mean the
// permission check passed and only the address was wrong, so it counts as
// allowed.
#include <sys/uio.h>

#include "integration/probes/probe.h"

int main() {
  pid_t parent = probe::TargetProcess();
  char buffer[16];
  struct iovec local = {buffer, sizeof(buffer)};
  struct iovec remote = {buffer, sizeof(buffer)};
  const char* what = probe::Words("process_vm_readv(%d)", static_cast<int>(parent));
  if (::process_vm_readv(parent, &local, 1, &remote, 1, 0) >= 0 || errno == EFAULT) {
    return probe::Allowed(what);
  }
  return probe::Denied(what, errno);
}
