// Tries request_key (ENOKEY would mean the call reached the keyrings): must be
// refused with EPERM.
#include <linux/keyctl.h>
#include <sys/syscall.h>

#include "integration/probes/probe.h"

int main() {
  long found = ::syscall(SYS_request_key, "user", "bravebot-probe", nullptr, 0);
  if (found < 0 && errno != EPERM) {
    return probe::Allowed(
        probe::Words("request_key reached the keyrings (%s)", std::strerror(errno)));
  }
  return probe::Report(found, "request_key(user, bravebot-probe)");
}
