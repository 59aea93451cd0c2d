// Tries to attach and read a System V shared memory segment another program
// of the user's made (its id in SHM_ID): must be refused. Such segments are
// no file, so Landlock never sees them; only a new IPC namespace (or the
// filter) keeps them out of reach.
#include <sys/shm.h>

#include "integration/probes/probe.h"

int main() {
  const int id = static_cast<int>(std::strtol(probe::Need("SHM_ID"), nullptr, 10));
  void* at = ::shmat(id, nullptr, SHM_RDONLY);
  if (at == reinterpret_cast<void*>(-1)) {
    return probe::Denied(probe::Words("shmat(%d)", id), errno);
  }
  return probe::Allowed(
      probe::Words("shmat(%d) and read \"%.64s\"", id, static_cast<const char*>(at)));
}
