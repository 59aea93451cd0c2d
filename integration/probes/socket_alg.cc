// Tries socket(AF_ALG) (the kernel's crypto, open to any user otherwise): must
// be refused (EAFNOSUPPORT).
#include <sys/socket.h>

#include "integration/probes/probe.h"

int main() { return probe::Report(::socket(AF_ALG, SOCK_SEQPACKET, 0), "socket(AF_ALG)"); }
