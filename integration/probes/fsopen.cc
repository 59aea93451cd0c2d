// Tries fsopen("tmpfs"), the first step of the new mount API: must be refused
// (EPERM).
#include <sys/syscall.h>

#include "integration/probes/probe.h"

int main() { return probe::Report(::syscall(SYS_fsopen, "tmpfs", 0), "fsopen(tmpfs)"); }
