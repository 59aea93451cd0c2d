// Tries ioctl(TIOCSTI) with a high bit set in the request (the kernel reads
// only its low 32 bits): the filter must still refuse it with EPERM.
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include "integration/probes/probe.h"

int main() {
  char key = 'x';
  const unsigned long request = (1UL << 32) | TIOCSTI;
  const char* what = "ioctl(0, 1 << 32 | TIOCSTI)";
  if (::syscall(SYS_ioctl, 0, request, &key) == 0) return probe::Allowed(what);
  if (errno == EPERM) return probe::Denied(what, errno);
  return probe::Allowed(probe::Words("%s reached the kernel (%s)", what, std::strerror(errno)));
}
