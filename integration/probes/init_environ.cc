// Tries to read /proc/1/environ: must be refused.
#include "integration/probes/probe.h"

int main() { return probe::Report(probe::ReadFile("/proc/1/environ"), "read /proc/1/environ"); }
