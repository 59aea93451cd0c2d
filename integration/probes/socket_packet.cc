// Tries socket(AF_PACKET) (raw frames): must be refused (EAFNOSUPPORT).
#include <sys/socket.h>

#include "integration/probes/probe.h"

int main() { return probe::Report(::socket(AF_PACKET, SOCK_RAW, 0), "socket(AF_PACKET)"); }
