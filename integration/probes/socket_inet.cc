// Makes an IPv4 socket (the network by IP address is in the reach): must work.
#include <sys/socket.h>

#include "integration/probes/probe.h"

int main() { return probe::Report(::socket(AF_INET, SOCK_STREAM, 0), "socket(AF_INET)"); }
