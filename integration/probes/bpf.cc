// Tries bpf(BPF_MAP_CREATE): must be refused (EPERM).
#include <linux/bpf.h>
#include <sys/syscall.h>

#include "integration/probes/probe.h"

int main() {
  union bpf_attr attributes = {};
  attributes.map_type = BPF_MAP_TYPE_ARRAY;
  attributes.key_size = 4;
  attributes.value_size = 4;
  attributes.max_entries = 1;
  return probe::Report(::syscall(SYS_bpf, BPF_MAP_CREATE, &attributes, sizeof(attributes)),
                       "bpf(BPF_MAP_CREATE)");
}
