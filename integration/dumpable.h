// Whether a running program of ours has made itself non-dumpable, seen from
// outside: the kernel then gives the files of its /proc/PID (stat, environ,
// mem; not the directory itself) to root:root instead of the user and group
// it runs as, and keeps its memory from everyone but root.
#ifndef BRAVEBOT_INTEGRATION_DUMPABLE_H_
#define BRAVEBOT_INTEGRATION_DUMPABLE_H_

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace bravebot::testing {

// `argv` run so that its /proc/PID/stat is owned by something other than
// root:root while it is dumpable: as root, it runs with the group nogroup
// (65534) instead, through setpriv; anyone else owns it as themselves.
inline std::vector<std::string> WithAnOwnerOtherThanRoot(std::vector<std::string> argv) {
  if (::geteuid() != 0) return argv;
  argv.insert(argv.begin(), {"/usr/bin/setpriv", "--regid=65534", "--clear-groups"});
  return argv;
}

// Whether /proc/`pid`/stat comes to be root:root within 5 s once `pid` runs
// `program` (setpriv before it runs as root:root), as it does once the
// program, started by WithAnOwnerOtherThanRoot, made itself non-dumpable.
inline bool BecomesNonDumpable(pid_t pid, const std::string& program) {
  const std::string proc = "/proc/" + std::to_string(pid);
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < until) {
    std::ifstream comm(proc + "/comm");
    std::string name;
    std::getline(comm, name);
    struct stat status;
    if (::stat((proc + "/stat").c_str(), &status) != 0) return false;  // it ended
    if (name == program && status.st_uid == 0 && status.st_gid == 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

}  // namespace bravebot::testing

#endif  // BRAVEBOT_INTEGRATION_DUMPABLE_H_
