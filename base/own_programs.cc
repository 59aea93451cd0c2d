#include "base/own_programs.h"

#include <unistd.h>

namespace bravebot {

std::string ProgramBesideThisOne(std::string_view name) {
  char self[4096];
  ssize_t length = ::readlink("/proc/self/exe", self, sizeof(self));
  if (length <= 0 || length == sizeof(self)) return "";
  std::string path(self, static_cast<size_t>(length));
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return "";
  path.resize(slash + 1);
  return path.append(name);
}

}  // namespace bravebot
