// Tries to bind a TCP port on every address, IPv4 and IPv6, and listen on
// it: both must be refused (Landlock, from ABI 4: no port may be bound). A port it
// listened on would let any program of the machine talk to it, outside the
// stdio bravebot-mcp supervises.
#include <netinet/in.h>
#include <sys/socket.h>

#include "integration/probes/probe.h"

namespace {

// The attempt on one family: 0 when it listens, else the errno of the step
// that failed; the step is named in `step`.
int Listen(int family, const char** step) {
  *step = "socket";
  int fd = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return errno;
  struct sockaddr_storage address = {};
  socklen_t size = 0;
  if (family == AF_INET) {
    auto* ipv4 = reinterpret_cast<struct sockaddr_in*>(&address);
    ipv4->sin_family = AF_INET;
    ipv4->sin_addr.s_addr = htonl(INADDR_ANY);
    size = sizeof(*ipv4);
  } else {
    auto* ipv6 = reinterpret_cast<struct sockaddr_in6*>(&address);
    ipv6->sin6_family = AF_INET6;
    ipv6->sin6_addr = in6addr_any;
    size = sizeof(*ipv6);
  }
  *step = "bind";
  if (::bind(fd, reinterpret_cast<struct sockaddr*>(&address), size) != 0) return errno;
  *step = "listen";
  return ::listen(fd, 4) != 0 ? errno : 0;
}

}  // namespace

int main() {
  const char* step4 = "";
  const int error4 = Listen(AF_INET, &step4);
  if (error4 == 0) return probe::Allowed("listen on a TCP port, IPv4");
  const char* step6 = "";
  const int error6 = Listen(AF_INET6, &step6);
  if (error6 == 0) return probe::Allowed("listen on a TCP port, IPv6");
  // A machine without IPv6 has nothing more to refuse.
  if (error6 != EAFNOSUPPORT || std::strcmp(step6, "socket") != 0) {
    std::printf("denied: %s on a TCP port, IPv6: %s\n", step6, std::strerror(error6));
  }
  return probe::Denied(probe::Words("%s on a TCP port, IPv4", step4), error4);
}
