// Tries to list the real home of the user it runs as (/root for root, from
// /etc/passwd): must be refused.
#include <dirent.h>
#include <pwd.h>

#include "integration/probes/probe.h"

int main() {
  struct passwd* user = ::getpwuid(::geteuid());
  if (user == nullptr || user->pw_dir == nullptr) probe::SetupFailed("getpwuid");
  const char* home = user->pw_dir;
  DIR* directory = ::opendir(home);
  if (directory == nullptr) return probe::Denied(probe::Words("list %s", home), errno);
  int count = 0;
  while (::readdir(directory) != nullptr) ++count;
  ::closedir(directory);
  return probe::Allowed(probe::Words("list %s (%d entries)", home, count));
}
