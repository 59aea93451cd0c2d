// Tries to connect to an abstract unix socket the test listens on: must be
// refused (Landlock's abstract socket scope, ABI 6).
#include <sys/socket.h>
#include <sys/un.h>

#include <cstddef>

#include "integration/probes/probe.h"

int main() {
  const char* name = probe::Need("SOCKET_NAME");
  struct sockaddr_un address = {};
  address.sun_family = AF_UNIX;
  const size_t length = std::strlen(name);
  if (length + 1 > sizeof(address.sun_path)) probe::SetupFailed("socket name too long");
  std::memcpy(address.sun_path + 1, name, length);  // sun_path[0] == 0: abstract
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) probe::SetupFailed("socket(AF_UNIX)");
  socklen_t size = static_cast<socklen_t>(offsetof(struct sockaddr_un, sun_path) + 1 + length);
  long done = ::connect(fd, reinterpret_cast<struct sockaddr*>(&address), size);
  return probe::Report(done, probe::Words("connect to @%s", name));
}
