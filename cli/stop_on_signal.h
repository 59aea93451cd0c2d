// How mcp-run ends when it is asked to (SIGTERM, SIGINT or SIGHUP) while a
// server runs: it kills the server's whole process group, removes the server's
// run directory, gives its own standard input and output back their flags,
// and ends as that signal ends a program (a shell shows 128 + its number).
// Without it mcp-run died at once and left the run directory behind, and the
// TypeScript SDK's close() sends SIGTERM to every server that is slow to end.
//
//   int main(int argc, char** argv) {
//     StopOnSignal::Install();  // before any thread starts
//     ...
//     StopOnSignal watching(server->pid(), server->run_directory());
//     ...
//     server->Stop();
//   }  // watching ends after Stop
//
// The signals are blocked in every thread and taken by one thread of their own
// (sigwait), so the cleanup is ordinary code and not a signal handler's.
#ifndef BRAVEBOT_CLI_STOP_ON_SIGNAL_H_
#define BRAVEBOT_CLI_STOP_ON_SIGNAL_H_

#include <sys/types.h>

#include <string>

namespace bravebot {

class StopOnSignal {
 public:
  // Blocks the three signals in the calling thread, and so in every thread it
  // starts afterwards, and starts the thread that waits for them. Call once,
  // first in main. Until a server is watched, a signal ends mcp-run at once.
  static void Install();

  // While this lives, a signal kills the process group `server_group` with
  // SIGKILL and removes `run_directory` before mcp-run ends. One at a time.
  StopOnSignal(pid_t server_group, std::string run_directory);
  ~StopOnSignal();

  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;
};

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_STOP_ON_SIGNAL_H_
