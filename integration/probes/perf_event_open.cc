// Tries perf_event_open on itself (a software clock): must be refused (EPERM).
#include <linux/perf_event.h>
#include <sys/syscall.h>

#include "integration/probes/probe.h"

int main() {
  struct perf_event_attr attributes = {};
  attributes.size = sizeof(attributes);
  attributes.type = PERF_TYPE_SOFTWARE;
  attributes.config = PERF_COUNT_SW_CPU_CLOCK;
  attributes.exclude_kernel = 1;
  attributes.exclude_hv = 1;
  return probe::Report(::syscall(SYS_perf_event_open, &attributes, 0, -1, -1, 0),
                       "perf_event_open(PERF_COUNT_SW_CPU_CLOCK)");
}
