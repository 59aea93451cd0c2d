#include "supervisor/stray_processes.h"

#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <string>

namespace bravebot {
namespace {

// Passes of EndStrays: each kills what the one before found, and a process
// forking as fast as it can is caught within a few.
constexpr int kMostPasses = 50;

// Every process's parent, from /proc/<pid>/stat.
std::map<pid_t, pid_t> ParentsOfAll() {
  std::map<pid_t, pid_t> parents;
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return parents;
  while (struct dirent* entry = ::readdir(proc)) {
    const std::string name = entry->d_name;
    if (name.empty() || !std::all_of(name.begin(), name.end(), ::isdigit)) continue;
    std::ifstream stat("/proc/" + name + "/stat");
    std::string text;
    std::getline(stat, text);
    // The command name is in parentheses and may hold anything; the state
    // and the parent follow the last one.
    size_t close = text.rfind(')');
    if (close == std::string::npos || close + 4 > text.size()) continue;
    pid_t parent = static_cast<pid_t>(std::atol(text.c_str() + close + 4));
    parents[static_cast<pid_t>(std::stol(name))] = parent;
  }
  ::closedir(proc);
  return parents;
}

std::vector<pid_t> DescendantsIn(const std::map<pid_t, pid_t>& parents, pid_t root) {
  std::vector<pid_t> found = {root};
  for (size_t next = 0; next < found.size(); ++next) {
    for (const auto& [pid, parent] : parents) {
      if (parent == found[next] && std::find(found.begin(), found.end(), pid) == found.end()) {
        found.push_back(pid);
      }
    }
  }
  found.erase(found.begin());
  return found;
}

}  // namespace

std::vector<pid_t> DescendantsOf(pid_t root) { return DescendantsIn(ParentsOfAll(), root); }

void EndStrays(pid_t server, const std::function<bool(pid_t)>& is_running_server) {
  const pid_t self = ::getpid();
  for (int pass = 0; pass < kMostPasses; ++pass) {
    const std::map<pid_t, pid_t> parents = ParentsOfAll();
    std::vector<pid_t> strays = DescendantsIn(parents, server);
    // What any server left behind has come to us, with all it started since:
    // a chain of daemons is ended whole, not one link a pass.
    for (const auto& [pid, parent] : parents) {
      if (parent != self || pid == server || is_running_server(pid)) continue;
      std::vector<pid_t> tree = DescendantsIn(parents, pid);
      tree.insert(tree.begin(), pid);
      for (pid_t stray : tree) {
        if (std::find(strays.begin(), strays.end(), stray) == strays.end()) {
          strays.push_back(stray);
        }
      }
    }
    if (strays.empty()) return;
    for (pid_t pid : strays) ::kill(pid, SIGKILL);
    // Ours are reaped here; the others come to us as their parents die.
    for (pid_t pid : strays) {
      if (parents.at(pid) == self) ::waitpid(pid, nullptr, 0);
    }
  }
}

}  // namespace bravebot
