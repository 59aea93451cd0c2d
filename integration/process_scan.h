// Finding processes from outside any namespace a server runs in: a server in a
// PID namespace of its own cannot say its pid as the machine sees it, so a
// test marks what it starts with an argument no other process holds, and looks
// for that word in every /proc/<pid>/cmdline.
#ifndef BRAVEBOT_INTEGRATION_PROCESS_SCAN_H_
#define BRAVEBOT_INTEGRATION_PROCESS_SCAN_H_

#include <dirent.h>

#include <cctype>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace bravebot::testing {

// The pids of the processes, zombies left out, one of whose arguments is
// `word`.
inline std::vector<std::string> ProcessesWithArgument(const std::string& word) {
  std::vector<std::string> found;
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return found;
  while (struct dirent* entry = ::readdir(proc)) {
    const std::string pid = entry->d_name;
    if (pid.empty() || !std::isdigit(static_cast<unsigned char>(pid[0]))) continue;
    std::ifstream cmdline("/proc/" + pid + "/cmdline", std::ios::binary);
    std::string arguments((std::istreambuf_iterator<char>(cmdline)),
                          std::istreambuf_iterator<char>());
    if (arguments.find(word + '\0') == std::string::npos) continue;
    std::ifstream stat("/proc/" + pid + "/stat");
    std::string status((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    size_t close = status.rfind(')');
    if (close != std::string::npos && close + 2 < status.size() && status[close + 2] == 'Z') {
      continue;
    }
    found.push_back(pid);
  }
  ::closedir(proc);
  return found;
}

}  // namespace bravebot::testing

#endif  // BRAVEBOT_INTEGRATION_PROCESS_SCAN_H_
