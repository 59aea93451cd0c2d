// Tries to connect to a unix socket file outside its home, temporary and
// working directories: must be refused, by Landlock from ABI 9, and below it
// by the socket's place being hidden (an empty mount over /tmp, /run, the
// person's home...). With THROUGH_LINK set, connects through a link to it
// it makes first in its temporary directory, which it may write.
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "integration/probes/probe.h"

int main() {
  const char* target = probe::Need("TARGET");
  const char* path = target;
  if (std::getenv("THROUGH_LINK") != nullptr) {
    path = probe::Words("%s/link-to-socket", probe::Need("TMPDIR"));
    if (::symlink(target, path) != 0) probe::SetupFailed("symlink to the socket");
  }
  struct sockaddr_un address = {};
  address.sun_family = AF_UNIX;
  if (std::strlen(path) >= sizeof(address.sun_path)) probe::SetupFailed("socket path too long");
  std::strcpy(address.sun_path, path);
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) probe::SetupFailed("socket(AF_UNIX)");
  long done = ::connect(fd, reinterpret_cast<struct sockaddr*>(&address), sizeof(address));
  return probe::Report(done, probe::Words("connect to %s", path));
}
