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

#include <functional>
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
  // While this lives, a signal calls `stop` instead, from the waiting
  // thread: for a service, which is told its session ended (a DELETE) on
  // mcp-run's own loop, which then ends mcp-run with EndBySignal. A second
  // signal meanwhile ends mcp-run at once.
  explicit StopOnSignal(std::function<void(int signal)> stop);
  ~StopOnSignal();

  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;
};

// Ends mcp-run as `signal` ends a program, so that whoever started it (a
// shell, a loop that stops on Ctrl-C) sees that it was ended by it; its
// standard input and output get back the flags they came with.
[[noreturn]] void EndBySignal(int signal);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_STOP_ON_SIGNAL_H_
