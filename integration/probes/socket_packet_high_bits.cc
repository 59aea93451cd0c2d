// Tries socket(AF_PACKET) with a high bit set in the family (the kernel reads
// only its low 32 bits): must still be refused (EAFNOSUPPORT).
#include <sys/socket.h>
#include <sys/syscall.h>

#include "integration/probes/probe.h"

int main() {
  const unsigned long family = (1UL << 32) | AF_PACKET;
  return probe::Report(::syscall(SYS_socket, family, SOCK_RAW, 0), "socket(1 << 32 | AF_PACKET)");
}
