// Tries to connect to a unix socket file outside its home, temporary and
// working directories: must be refused where Landlock can (ABI 9).
#include <sys/socket.h>
#include <sys/un.h>

#include "integration/probes/probe.h"

int main() {
  const char* path = probe::Need("TARGET");
  struct sockaddr_un address = {};
  address.sun_family = AF_UNIX;
  if (std::strlen(path) >= sizeof(address.sun_path)) probe::SetupFailed("socket path too long");
  std::strcpy(address.sun_path, path);
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) probe::SetupFailed("socket(AF_UNIX)");
  long done = ::connect(fd, reinterpret_cast<struct sockaddr*>(&address), sizeof(address));
  return probe::Report(done, probe::Words("connect to %s", path));
}
