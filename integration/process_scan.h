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

// The pids of the processes, zombies left out, whose /proc/<pid>/`file`
// (NUL-separated words: cmdline, environ) holds `word` whole.
inline std::vector<std::string> ProcessesWith(const std::string& file, const std::string& word) {
  std::vector<std::string> found;
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return found;
  while (struct dirent* entry = ::readdir(proc)) {
    const std::string pid = entry->d_name;
    if (pid.empty() || !std::isdigit(static_cast<unsigned char>(pid[0]))) continue;
    const std::string words = '\0' + ReadProcFile("/proc/" + pid + "/" + file);
    if (words.find('\0' + word + '\0') == std::string::npos || IsZombie(pid)) continue;
    found.push_back(pid);
  }
  ::closedir(proc);
  return found;
}

// The processes, zombies left out, whose parent is `parent` and whose name
// (/proc/PID/comm, at most 15 bytes) is `name`. Readable by any user,
// where a process's environment is not once it made itself undumpable.
inline std::vector<std::string> ChildrenNamed(const std::string& parent, const std::string& name) {
  std::vector<std::string> found;
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return found;
  while (struct dirent* entry = ::readdir(proc)) {
    const std::string pid = entry->d_name;
    if (pid.empty() || !std::isdigit(static_cast<unsigned char>(pid[0]))) continue;
    const std::string status = ReadProcFile("/proc/" + pid + "/stat");
    const size_t close = status.rfind(')');
    if (close == std::string::npos || close + 4 >= status.size() || status[close + 2] == 'Z') {
      continue;
    }
    // After the name: " STATE PPID ...".
    const std::string after = status.substr(close + 4);
    if (after.substr(0, after.find(' ')) != parent) continue;
    std::string comm = ReadProcFile("/proc/" + pid + "/comm");
    if (!comm.empty() && comm.back() == '\n') comm.pop_back();
    if (comm == name.substr(0, 15)) found.push_back(pid);
  }
  ::closedir(proc);
  return found;
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
  std::vector<std::string> found;
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return found;
  while (struct dirent* entry = ::readdir(proc)) {
    const std::string pid = entry->d_name;
    if (pid.empty() || !std::isdigit(static_cast<unsigned char>(pid[0]))) continue;
    const std::string arguments = ReadProcFile("/proc/" + pid + "/cmdline");
    if (arguments.find(word + '\0') == std::string::npos) continue;
    const std::string status = ReadProcFile("/proc/" + pid + "/stat");
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
