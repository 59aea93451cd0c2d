// Tries to signal process 1 with signal 0: must be refused.
#include <signal.h>

#include "integration/probes/probe.h"

int main() { return probe::Report(::kill(1, 0), "kill(1, 0)"); }
