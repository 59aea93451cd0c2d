// Tries kill(-1, 0): signal 0 to every process its user may signal (a check
// only, which changes nothing). Must be refused (seccomp): where the kernel
// refuses each process alone, kill(-1) still answers 0.
#include <signal.h>

#include "integration/probes/probe.h"

int main() { return probe::Report(::kill(-1, 0), "kill(-1, 0)"); }
