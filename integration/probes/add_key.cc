// Tries add_key into its process keyring: must be refused (EPERM).
#include <linux/keyctl.h>
#include <sys/syscall.h>

#include "integration/probes/probe.h"

int main() {
  return probe::Report(
      ::syscall(SYS_add_key, "user", "bravebot-probe", "x", 1, KEY_SPEC_PROCESS_KEYRING),
      "add_key(user, bravebot-probe)");
}
