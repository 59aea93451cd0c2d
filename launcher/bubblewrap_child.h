// What runs in the child between clone() and the execve of bwrap, for the
// bubblewrap backend. As in launcher/child.h, the child shares its parent's
// memory, so every function here is async-signal-safe and makes only system
// calls on data the parent prepared. bwrap takes the confining steps itself
// (namespaces, binds, capabilities, seccomp last); the child only arranges
// what bwrap is given and how it ends.
#ifndef BRAVEBOT_LAUNCHER_BUBBLEWRAP_CHILD_H_
#define BRAVEBOT_LAUNCHER_BUBBLEWRAP_CHILD_H_

namespace bravebot {

struct BubblewrapChildPlan {
  int parent_pidfd;  // becomes readable once the parent has ended
  const char* bwrap;
  char* const* argv;
  int stdio_fds[3];  // to become 0, 1, 2; -1 keeps the one there
  int error_fd;      // close-on-exec: closes once bwrap executes
  // bwrap's descriptors (its --args file, the filter, each bind's), each
  // above 2 and named in bwrap's arguments by its number: left where they
  // are, so that a server with a bind for each entry of /etc needs no second
  // descriptor for any (a low limit on open files holds them all once).
  const int* given_fds;
  int given_count;
};

// Arms the death signal, makes every descriptor above 2 but the given ones
// close on exec, puts the standard streams on 0, 1 and 2, resets signals,
// sets umask 077, turns core dumps off, starts a session (its own process
// group), and executes bwrap with no environment. On a failure, reports it
// and exits 127. Its int is clone()'s.
int RunBubblewrapChild(void* plan);

}  // namespace bravebot

#endif  // BRAVEBOT_LAUNCHER_BUBBLEWRAP_CHILD_H_
