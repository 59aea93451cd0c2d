// clone() as vfork() is: the child shares the calling process's memory until
// it executes a program or exits, and the calling thread waits until then.
// Nothing of the process is copied, however large it is and however many
// threads it runs, which is what makes starting many servers at once cheap.
// The price is that the child must write nothing of its parent's (see
// launcher/child.h); this file takes care of what the sharing itself asks:
// a stack of the child's own, no parent handler run in the child, and
// dumpability, which belongs to the memory and so to both.
#ifndef BRAVEBOT_LAUNCHER_CLONE_SHARING_MEMORY_H_
#define BRAVEBOT_LAUNCHER_CLONE_SHARING_MEMORY_H_

#include <sys/types.h>

namespace bravebot {

// Runs `child(argument)` in a new process made with `flags` (namespaces; the
// exit signal is SIGCHLD) | CLONE_VM | CLONE_VFORK. Returns its pid once it
// has executed a program or exited, or -errno.
//
// While a child runs here the process is dumpable: mcp-run, bravebot-mcp and
// the supervisor make themselves non-dumpable, and a non-dumpable process
// may not write its own user namespace's maps (its /proc/self files are
// root's). It is counted across the threads that launch, and made
// non-dumpable again after the last. A process of the same user could read
// the starter's memory meanwhile; a confined one could not, and one that is
// not can read mcp.json itself.
pid_t CloneSharingMemory(int flags, int (*child)(void*), void* argument);

}  // namespace bravebot

#endif  // BRAVEBOT_LAUNCHER_CLONE_SHARING_MEMORY_H_
