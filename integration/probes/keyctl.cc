// Tries keyctl (joining a new session keyring): must be refused (EPERM).
#include <linux/keyctl.h>
#include <sys/syscall.h>

#include "integration/probes/probe.h"

int main() {
  return probe::Report(::syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, nullptr),
                       "keyctl(KEYCTL_JOIN_SESSION_KEYRING)");
}
