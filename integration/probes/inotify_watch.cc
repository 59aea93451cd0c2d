// Tries to watch TARGET_DIR with inotify, which would report the name of each
// file opened or made there: must be refused (seccomp refuses
// inotify_add_watch).
#include <sys/inotify.h>

#include "integration/probes/probe.h"

int main() {
  const char* target = probe::Need("TARGET_DIR");
  int fd = ::inotify_init1(IN_CLOEXEC);
  if (fd < 0) probe::SetupFailed("inotify_init1");
  return probe::Report(::inotify_add_watch(fd, target, IN_OPEN | IN_CREATE | IN_MODIFY),
                       probe::Words("inotify_add_watch on %s", target));
}
