// Listens on a unix socket in its temporary directory and connects to it:
// must work, wherever that directory is (beneath /tmp it is bound back onto
// the mount that hides the rest of /tmp below Landlock ABI 9).
#include <sys/socket.h>
#include <sys/un.h>

#include "integration/probes/probe.h"

int main() {
  const char* directory = probe::Need("TMPDIR");
  struct sockaddr_un address = {};
  address.sun_family = AF_UNIX;
  if (std::strlen(directory) + 10 >= sizeof(address.sun_path)) {
    probe::SetupFailed("temporary directory too long for a socket path");
  }
  std::strcpy(address.sun_path, directory);
  std::strcat(address.sun_path, "/own.sock");
  int listening = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int connecting = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listening < 0 || connecting < 0) probe::SetupFailed("socket(AF_UNIX)");
  auto* generic = reinterpret_cast<struct sockaddr*>(&address);
  if (::bind(listening, generic, sizeof(address)) != 0 || ::listen(listening, 1) != 0) {
    return probe::Report(-1, probe::Words("listen on %s", address.sun_path));
  }
  long done = ::connect(connecting, generic, sizeof(address));
  return probe::Report(done, probe::Words("connect to %s", address.sun_path));
}
