// Tries to take away the mount that hides /tmp below Landlock ABI 9, to
// reach the sockets beneath it: must be refused (seccomp refuses umount2,
// and it holds no capability).
#include <sys/mount.h>

#include "integration/probes/probe.h"

int main() { return probe::Report(::umount2("/tmp", MNT_DETACH), "unmount /tmp"); }
