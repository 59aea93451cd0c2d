// Looks for any privilege it was left: every capability set empty (the
// bounding set too when run as root), no-new-privileges set, a seccomp filter
// on, and as root SECBIT_NOROOT locked. Any privilege left counts as allowed.
#include <linux/securebits.h>
#include <sys/prctl.h>

#include "integration/probes/probe.h"

int main() {
  const bool root = ::geteuid() == 0;
  const char* empty[] = {"CapInh", "CapPrm", "CapEff", "CapAmb", "CapBnd"};
  for (const char* field : empty) {
    if (!root && std::strcmp(field, "CapBnd") == 0) continue;  // only root can drop it
    unsigned long long value = probe::StatusField(field);
    if (value != 0) return probe::Allowed(probe::Words("%s is %llx", field, value));
  }
  if (probe::StatusField("NoNewPrivs") != 1) return probe::Allowed("NoNewPrivs is not 1");
  if (probe::StatusField("Seccomp") != 2) return probe::Allowed("Seccomp is not 2 (filter)");
  const int kNoRoot = SECBIT_NOROOT | SECBIT_NOROOT_LOCKED;
  int bits = ::prctl(PR_GET_SECUREBITS);
  if (root && (bits < 0 || (bits & kNoRoot) != kNoRoot)) {
    return probe::Allowed(probe::Words("securebits are %#x, without NOROOT locked", bits));
  }
  return probe::Denied(root ? "no capability (bounding set empty), no_new_privs, seccomp, "
                              "SECBIT_NOROOT locked"
                            : "no capability, no_new_privs, seccomp",
                       EPERM);
}
