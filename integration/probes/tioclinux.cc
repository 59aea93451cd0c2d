// Tries ioctl(TIOCLINUX) (pastes the console's selection into its input): the
// filter must refuse it with EPERM.
#include <sys/ioctl.h>

#include "integration/probes/probe.h"

int main() {
  char subcode = 3;  // TIOCL_PASTESEL
  if (::ioctl(0, TIOCLINUX, &subcode) == 0) return probe::Allowed("ioctl(0, TIOCLINUX)");
  if (errno == EPERM) return probe::Denied("ioctl(0, TIOCLINUX)", errno);
  return probe::Allowed(
      probe::Words("ioctl(0, TIOCLINUX) reached the kernel (%s)", std::strerror(errno)));
}
