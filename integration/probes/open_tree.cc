// Tries open_tree(OPEN_TREE_CLONE) on its home (a detached copy of a mount,
// to be moved elsewhere): must be refused (EPERM).
#include <linux/mount.h>
#include <sys/syscall.h>

#include "integration/probes/probe.h"

int main() {
  const char* home = probe::Need("HOME");
  return probe::Report(::syscall(SYS_open_tree, AT_FDCWD, home, OPEN_TREE_CLONE | O_CLOEXEC),
                       probe::Words("open_tree(%s, OPEN_TREE_CLONE)", home));
}
