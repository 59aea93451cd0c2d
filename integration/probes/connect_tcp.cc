// Connects to the TCP port PORT on 127.0.0.1, where the test listens: must
// work (the network by IP address is in the reach).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "integration/probes/probe.h"

int main() {
  long port = std::strtol(probe::Need("PORT"), nullptr, 10);
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) probe::SetupFailed("socket(AF_INET)");
  struct sockaddr_in address = {};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return probe::Report(::connect(fd, reinterpret_cast<struct sockaddr*>(&address), sizeof(address)),
                       probe::Words("connect to 127.0.0.1:%ld", port));
}
