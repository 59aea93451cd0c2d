// The first process of a server's PID namespace. The kernel ends a PID
// namespace the moment its first process ends, killing every process in it,
// and that first process dies when the program that started it does (the
// parent-death signal); so it stays ours, small, and does three things: it
// starts the server as its one child, passes the stopping signals on to it,
// and ends with the server's status once the server ends. Being a copy of
// the starting program's memory, it first makes itself undumpable (no
// /proc/1/mem, environ or core for the server to read) and wipes its copy of
// the command line and environment, which /proc/1/cmdline would show.
#ifndef BRAVEBOT_LAUNCHER_INIT_PROCESS_H_
#define BRAVEBOT_LAUNCHER_INIT_PROCESS_H_

#include <cstdint>

namespace bravebot {

// Where the starting program's command line and environment lie in its
// memory (and so in every copy of it), from /proc/self/stat; zero where it
// cannot be read.
struct MemoryRegion {
  uintptr_t start = 0;
  uintptr_t end = 0;
};
struct CommandLineRegions {
  MemoryRegion arguments;
  MemoryRegion environment;
};
CommandLineRegions ReadCommandLineRegions();

// In the child that is the namespace's first process: starts the server's
// process and returns 0 in it. In the first process itself, never returns: it
// relays SIGTERM, SIGINT and SIGHUP to the server's process group and exits
// with the server's status (128 + the signal that ended it). Returns the errno
// of the fork that failed, in the first process. Async-signal-safe.
int StartServerUnderInit(const CommandLineRegions& wipe);

// In the server's process, as it leaves the init: the relayed signals back to
// their default actions. Async-signal-safe.
void ResetInitSignals();

}  // namespace bravebot

#endif  // BRAVEBOT_LAUNCHER_INIT_PROCESS_H_
