// Makes a NETLINK_ROUTE socket (how getaddrinfo lists addresses): must work.
#include <linux/netlink.h>
#include <sys/socket.h>

#include "integration/probes/probe.h"

int main() {
  return probe::Report(::socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE),
                       "socket(AF_NETLINK, NETLINK_ROUTE)");
}
