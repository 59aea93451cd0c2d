// The last steps of every start, in the server's own process: its Landlock
// ruleset, its seccomp filter (last: once installed it binds what is left),
// its working directory, execve. Taken by the child itself where the server
// has no PID namespace, and by the server's process under bravebot-mcp-init
// where it has one.
#ifndef BRAVEBOT_LAUNCHER_SERVER_EXEC_H_
#define BRAVEBOT_LAUNCHER_SERVER_EXEC_H_

#include <linux/filter.h>

namespace bravebot {

struct ServerExec {
  bool landlock;  // the ruleset is on kRulesetFd
  const struct sock_fprog* seccomp;
  int working_directory_fd;
  const char* program;
  char* const* argv;
  char* const* envp;
};

// Takes the steps and executes `exec.program`; a step that fails is reported
// on kErrorFd, and the process exits 127. Async-signal-safe.
[[noreturn]] void ConfineAndExec(const ServerExec& exec);

}  // namespace bravebot

#endif  // BRAVEBOT_LAUNCHER_SERVER_EXEC_H_
