// Finding processes from outside any namespace a server runs in: a server in a
// PID namespace of its own cannot say its pid as the machine sees it, so a
// test marks what it starts with an argument no other process holds, and looks
// for that word in every /proc/<pid>/cmdline.
#ifndef BRAVEBOT_INTEGRATION_PROCESS_SCAN_H_
#define BRAVEBOT_INTEGRATION_PROCESS_SCAN_H_

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <string>
#include <vector>

namespace bravebot::testing {

// What a /proc file holds, or as much as was read before its process ended:
// read with read(2), since a stream throws when the process goes mid-read.
inline std::string ReadProcFile(const std::string& path) {
  std::string text;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return text;
  char buffer[4096];
  ssize_t got;
  while ((got = ::read(fd, buffer, sizeof(buffer))) > 0) text.append(buffer, got);
  ::close(fd);
  return text;
}

// Whether /proc/<pid>/stat says the process is a zombie.
inline bool IsZombie(const std::string& pid) {
  const std::string status = ReadProcFile("/proc/" + pid + "/stat");
  size_t close = status.rfind(')');
  return close != std::string::npos && close + 2 < status.size() && status[close + 2] == 'Z';
}

// The pids of the processes, zombies left out, for which `matches(pid)` is
// true.
template <typename Matches>
std::vector<std::string> ProcessesWhere(Matches matches) {
  std::vector<std::string> found;
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return found;
  while (struct dirent* entry = ::readdir(proc)) {
    const std::string pid = entry->d_name;
    if (pid.empty() || !std::isdigit(static_cast<unsigned char>(pid[0]))) continue;
    if (matches(pid) && !IsZombie(pid)) found.push_back(pid);
  }
  ::closedir(proc);
  return found;
}

// The pids of the processes, zombies left out, whose /proc/<pid>/`file`
// (NUL-separated words: cmdline, environ) holds `word` whole.
inline std::vector<std::string> ProcessesWith(const std::string& file, const std::string& word) {
  return ProcessesWhere([&](const std::string& pid) {
    const std::string words = '\0' + ReadProcFile("/proc/" + pid + "/" + file);
    return words.find('\0' + word + '\0') != std::string::npos;
  });
}

// The processes, zombies left out, whose parent is `parent` and whose name
// (/proc/PID/comm, at most 15 bytes) is `name`. Readable by any user,
// where a process's environment is not once it made itself undumpable.
inline std::vector<std::string> ChildrenNamed(const std::string& parent, const std::string& name) {
  return ProcessesWhere([&](const std::string& pid) {
    const std::string status = ReadProcFile("/proc/" + pid + "/stat");
    const size_t close = status.rfind(')');
    if (close == std::string::npos || close + 4 >= status.size()) return false;
    // After the name: " STATE PPID ...".
    const std::string after = status.substr(close + 4);
    if (after.substr(0, after.find(' ')) != parent) return false;
    std::string comm = ReadProcFile("/proc/" + pid + "/comm");
    if (!comm.empty() && comm.back() == '\n') comm.pop_back();
    return comm == name.substr(0, 15);
  });
}

// Whether `pid` is still a process, not a zombie.
inline bool StillRuns(const std::string& pid) {
  return !ReadProcFile("/proc/" + pid + "/stat").empty() && !IsZombie(pid);
}

// The processes, zombies left out, whose environment holds `variable`
// (NAME=value) whole: those this user may read the environment of.
inline std::vector<std::string> ProcessesWithEnvironment(const std::string& variable) {
  return ProcessesWith("environ", variable);
}

// The pids of the processes, zombies left out, one of whose arguments is
// `word`.
inline std::vector<std::string> ProcessesWithArgument(const std::string& word) {
  return ProcessesWhere([&](const std::string& pid) {
    return ReadProcFile("/proc/" + pid + "/cmdline").find(word + '\0') != std::string::npos;
  });
}

}  // namespace bravebot::testing

#endif  // BRAVEBOT_INTEGRATION_PROCESS_SCAN_H_
