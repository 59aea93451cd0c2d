// What runs in the child between clone() and the execve of bwrap, for the
// bubblewrap backend. As in launcher/child.h, the child shares its parent's
// memory, so every function here is async-signal-safe and makes only system
// calls on data the parent prepared. bwrap takes the confining steps itself
// (namespaces, binds, capabilities, seccomp last); the child only arranges
// what bwrap is given and how it ends.
#ifndef BRAVEBOT_LAUNCHER_BUBBLEWRAP_CHILD_H_
#define BRAVEBOT_LAUNCHER_BUBBLEWRAP_CHILD_H_

namespace bravebot {

// Where the child leaves bwrap's descriptors, above 0, 1 and 2 (the server's
// standard streams) and the error pipe on kErrorFd (child_report.h), which
// closes on bwrap's exec.
constexpr int kBubblewrapArgumentsFd = 4;  // the sealed memory file of `--args`
constexpr int kBubblewrapSeccompFd = 5;    // the filter's instructions, for `--seccomp`
constexpr int kBubblewrapFirstBindFd = 6;  // then one for each bind, in the plan's order

struct BubblewrapChildPlan {
  int parent_pidfd;  // becomes readable once the parent has ended
  const char* bwrap;
  char* const* argv;
  int stdio_fds[3];  // to become 0, 1, 2; -1 keeps the one there
  int error_fd;
  int arguments_fd;
  int seccomp_fd;
  const int* bind_fds;
  int bind_count;
  int* scratch;  // 6 + bind_count ints of the parent's, for the child to use
};

// Arms the death signal, puts each descriptor on its number and closes every
// other, resets signals, sets umask 077, turns core dumps off, starts a
// session (its own process group), and executes bwrap with no environment.
// On a failure, reports it and exits 127. Its int is clone()'s.
int RunBubblewrapChild(void* plan);

}  // namespace bravebot

#endif  // BRAVEBOT_LAUNCHER_BUBBLEWRAP_CHILD_H_
