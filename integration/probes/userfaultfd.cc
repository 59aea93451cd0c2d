// Tries userfaultfd (which holds a kernel race open at will): must be refused
// (EPERM).
#include <sys/syscall.h>

#include "integration/probes/probe.h"

int main() { return probe::Report(::syscall(SYS_userfaultfd, O_CLOEXEC), "userfaultfd"); }
