// Tries socket(AF_NETLINK, NETLINK_AUDIT): must be refused (EAFNOSUPPORT); only
// NETLINK_ROUTE is allowed.
#include <linux/netlink.h>
#include <sys/socket.h>

#include "integration/probes/probe.h"

int main() {
  return probe::Report(::socket(AF_NETLINK, SOCK_RAW, NETLINK_AUDIT),
                       "socket(AF_NETLINK, NETLINK_AUDIT)");
}
