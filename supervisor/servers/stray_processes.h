// Where no PID namespace holds a server (the machine allows no user
// namespace), what it starts can outlive it: a child that calls setsid or
// setpgid leaves its process group, and a double fork leaves its parent. Its
// starter is then a subreaper (launcher/launch.h), so every orphan of the
// server's becomes the starter's own child, and these find and end them.
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_STRAY_PROCESSES_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_STRAY_PROCESSES_H_

#include <sys/types.h>

#include <functional>
#include <vector>

namespace bravebot {

// Stops, then kills with SIGKILL, every descendant of `server` and every child
// of this process's that is not a server it still runs (`is_running_server`),
// with all of theirs, reaping those that are its children.
void EndStrays(pid_t server, const std::function<bool(pid_t)>& is_running_server);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_STRAY_PROCESSES_H_
