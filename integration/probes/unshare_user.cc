// Tries unshare(CLONE_NEWUSER), which would give back every capability inside
// a new namespace: must be refused (EPERM).
#include <sched.h>

#include "integration/probes/probe.h"

int main() { return probe::Report(::unshare(CLONE_NEWUSER), "unshare(CLONE_NEWUSER)"); }
