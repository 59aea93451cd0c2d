// The threads servers are launched from, so that starts run at once and none
// holds up the event loop (a start computes a reach, builds a Landlock
// ruleset and waits for its child to reach exec: milliseconds each).
//
// They live as long as the process: the kernel sends a server's first process
// its parent-death signal when the *thread* that started it ends, not the
// process, so a server started from a thread that ended would be killed at
// once. The threads end only when the process does, and then every server
// should end with it.
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_LAUNCHER_THREADS_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_LAUNCHER_THREADS_H_

#include <boost/asio/thread_pool.hpp>

namespace bravebot {

// Made on first use: as many threads as cores, and at least two, since a
// launch spends much of its time waiting for its child rather than computing.
boost::asio::thread_pool& LauncherThreads();

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_LAUNCHER_THREADS_H_
