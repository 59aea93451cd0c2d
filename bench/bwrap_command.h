// The bubblewrap command the benchmarks compare a confined start with:
// what a comparable confinement needs, the system read-only, a private /tmp
// and home, new user, PID and IPC namespaces, ended with its starter.
#ifndef BRAVEBOT_BENCH_BWRAP_COMMAND_H_
#define BRAVEBOT_BENCH_BWRAP_COMMAND_H_

#include <string>
#include <vector>

namespace bravebot {

// `server_argv` (an absolute program first) under bwrap, with our build's
// binaries in view, and the npm peers too when `needs_peers`.
inline std::vector<std::string> BwrapCommand(const std::vector<std::string>& server_argv,
                                             bool needs_peers) {
  std::vector<std::string> argv = {"/usr/bin/bwrap",
                                   "--ro-bind",
                                   "/usr",
                                   "/usr",
                                   "--symlink",
                                   "usr/bin",
                                   "/bin",
                                   "--symlink",
                                   "usr/lib",
                                   "/lib",
                                   "--symlink",
                                   "usr/lib64",
                                   "/lib64",
                                   "--ro-bind",
                                   "/etc",
                                   "/etc",
                                   "--proc",
                                   "/proc",
                                   "--dev",
                                   "/dev",
                                   "--tmpfs",
                                   "/tmp",
                                   "--unshare-user",
                                   "--unshare-pid",
                                   "--unshare-ipc",
                                   "--die-with-parent",
                                   "--new-session",
                                   "--ro-bind",
                                   BRAVEBOT_BIN_DIRECTORY,
                                   BRAVEBOT_BIN_DIRECTORY};
  if (needs_peers) {
    argv.insert(argv.end(), {"--ro-bind", BRAVEBOT_PEERS_DIRECTORY, BRAVEBOT_PEERS_DIRECTORY});
  }
  argv.insert(argv.end(), server_argv.begin(), server_argv.end());
  return argv;
}

}  // namespace bravebot

#endif  // BRAVEBOT_BENCH_BWRAP_COMMAND_H_
