// Tries to list the profile directory: must be refused.
#include <dirent.h>

#include "integration/probes/probe.h"

int main() {
  const char* profile = probe::Need("PROFILE");
  DIR* directory = ::opendir(profile);
  if (directory == nullptr) return probe::Denied(probe::Words("list %s", profile), errno);
  int count = 0;
  while (::readdir(directory) != nullptr) ++count;
  ::closedir(directory);
  return probe::Allowed(probe::Words("list %s (%d entries)", profile, count));
}
