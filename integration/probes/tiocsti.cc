// Tries ioctl(TIOCSTI) on its standard input, which types into a terminal:
// the filter must refuse it with EPERM whatever the descriptor is (any other
// answer means the request reached the kernel).
#include <sys/ioctl.h>

#include "integration/probes/probe.h"

int main() {
  char key = 'x';
  if (::ioctl(0, TIOCSTI, &key) == 0) return probe::Allowed("ioctl(0, TIOCSTI)");
  if (errno == EPERM) return probe::Denied("ioctl(0, TIOCSTI)", errno);
  return probe::Allowed(
      probe::Words("ioctl(0, TIOCSTI) reached the kernel (%s)", std::strerror(errno)));
}
