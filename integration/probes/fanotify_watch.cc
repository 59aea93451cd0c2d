// Tries to watch TARGET_DIR with fanotify, as a user without privilege may
// since Linux 5.13 (with file handles in its events): must be refused
// (seccomp refuses fanotify_init).
#include <sys/fanotify.h>

#include "integration/probes/probe.h"

int main() {
  const char* target = probe::Need("TARGET_DIR");
  int fd = ::fanotify_init(FAN_CLASS_NOTIF | FAN_REPORT_FID | FAN_CLOEXEC, O_RDONLY);
  if (fd < 0) return probe::Denied("fanotify_init(FAN_REPORT_FID)", errno);
  return probe::Report(
      ::fanotify_mark(fd, FAN_MARK_ADD, FAN_OPEN | FAN_EVENT_ON_CHILD, AT_FDCWD, target),
      probe::Words("fanotify_mark on %s", target));
}
