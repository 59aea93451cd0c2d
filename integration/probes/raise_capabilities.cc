// Tries to raise every capability with capset, and as root to clear its
// securebits: both must be refused.
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "integration/probes/probe.h"

int main() {
  struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct data[2] = {{~0U, ~0U, 0}, {~0U, ~0U, 0}};
  if (::syscall(SYS_capset, &header, data) == 0) return probe::Allowed("capset(all)");
  std::printf("denied: capset(all): %s; ", std::strerror(errno));
  return probe::Report(::prctl(PR_SET_SECUREBITS, 0, 0, 0, 0), "prctl(PR_SET_SECUREBITS, 0)");
}
