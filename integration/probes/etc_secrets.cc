// Tries to read the system's secrets in /etc (shadow, gshadow, their backups,
// sudoers, ssh host keys), each one present: every one must be refused.
#include <sys/stat.h>

#include <cstdlib>
#include <cstring>

#include "integration/probes/probe.h"

int main() {
  const char* secrets[] = {
      "/etc/shadow",
      "/etc/gshadow",
      "/etc/shadow-",
      "/etc/gshadow-",
      "/etc/sudoers",
      "/etc/ssh/ssh_host_rsa_key",
      "/etc/ssh/ssh_host_ecdsa_key",
      "/etc/ssh/ssh_host_ed25519_key",
      "/etc/ssh/ssh_host_dsa_key",
  };
  // Which are on this machine, as the test saw them from outside: a server
  // under bubblewrap has no look at a path outside its reach to tell.
  const char* present = std::getenv("PRESENT");
  int tried = 0;
  for (const char* secret : secrets) {
    struct stat status;
    if (present != nullptr) {
      if (std::strstr(present, probe::Words(":%s:", secret)) == nullptr) continue;
    } else if (::stat(secret, &status) != 0) {
      continue;  // a look is allowed; not on this machine
    }
    ++tried;
    if (probe::ReadFile(secret) == 0) return probe::Allowed(probe::Words("read %s", secret));
    std::printf("denied: read %s: %s\n", secret, std::strerror(errno));
  }
  if (tried == 0) probe::SetupFailed("none of the secrets is on this machine");
  return probe::kRefused;
}
