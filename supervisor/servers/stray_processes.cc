#include "supervisor/servers/stray_processes.h"

#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <string>

namespace bravebot {
namespace {

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

void EndStrays(pid_t server, const std::function<bool(pid_t)>& is_running_server) {
  const pid_t self = ::getpid();
  // First every stray is stopped, pass after pass until a pass finds none it
  // had not: a stopped process forks no more, so a daemon forking as fast as
  // it can is caught. Then each is killed. Both the server's descendants and
  // those of every orphan that came to us count, with all of theirs.
  std::set<pid_t> stopped;
  std::map<pid_t, pid_t> parents;
  for (bool found_new = true; found_new;) {
    found_new = false;
    parents = ParentsOfAll();
    std::vector<pid_t> roots = {server};
    for (const auto& [pid, parent] : parents) {
      if (parent == self && pid != server && !is_running_server(pid)) roots.push_back(pid);
    }
    for (pid_t root : roots) {
      std::vector<pid_t> strays = DescendantsIn(parents, root);
      if (root != server) strays.push_back(root);
      for (pid_t pid : strays) {
        if (stopped.insert(pid).second) {
          ::kill(pid, SIGSTOP);
          found_new = true;
        }
      }
    }
  }
  for (pid_t pid : stopped) ::kill(pid, SIGKILL);
  // Ours are reaped here; the others come to us as their parents die, and are
  // reaped by the next stop or when this process ends.
  for (pid_t pid : stopped) {
    auto parent = parents.find(pid);
    if (parent != parents.end() && parent->second == self) ::waitpid(pid, nullptr, 0);
  }
}

}  // namespace bravebot
