// The namespaces a server starts in. A user namespace mapping only the
// running user to itself (so it stays the same user, and no capability it
// holds there reaches outside), with a mount namespace for the read-only view
// and a /proc of its own, an IPC namespace (so no System V segment, queue or
// semaphore of the machine's is in reach), and a PID namespace: it sees no
// process of the machine's, can name none to kill, prlimit, setpriority or
// ptrace, and its first process is a small init of ours that the kernel
// kills, with every process inside, the moment the program that started it
// ends, however it ends (the parent-death signal).
//
// Where the machine allows no user namespace, none of this is had: the server
// starts in the machine's namespaces, its starter becomes a subreaper, and
// whatever it leaves behind is found and killed when it stops.
#ifndef BRAVEBOT_LAUNCHER_ISOLATION_H_
#define BRAVEBOT_LAUNCHER_ISOLATION_H_

#include <cstdint>
#include <optional>
#include <string>

namespace bravebot {

struct IsolationSupport {
  bool user_namespace = false;  // with a mount namespace
  bool pid_namespace = false;   // inside the user namespace, with its own /proc mounted
  // Empty when the machine answered. Else why it could not be learned: a
  // clone that failed for want of memory or of processes (which another
  // program of the same user can exhaust) says nothing of what the machine
  // allows, and no server is started on a guess.
  std::string unknown = "";

  friend bool operator==(const IsolationSupport&, const IsolationSupport&) = default;
};

// What this machine allows, tried in children: a refusal only where the
// kernel says no (EPERM, EINVAL, or no user namespace allowed at all), a
// failure for want of resources tried again, and still unknown after that.
// An answer is remembered; an unknown is tried again at the next call.
IsolationSupport ProbeIsolation();
// What ProbeIsolation answered in this process, without probing: nothing
// before it has answered.
std::optional<IsolationSupport> AnsweredIsolation();

struct IsolationPlan {
  bool user_namespace = false;
  bool pid_namespace = false;
  std::string uid_map;  // "1000 1000 1"
  std::string gid_map;
  uint64_t proc_access = 0;  // the Landlock rights its own /proc is given
};

// The plan for the calling user on a machine that allows `support`.
IsolationPlan PlanIsolation(IsolationSupport support, uint64_t proc_access);

// The clone flags that start a child in the namespaces of `plan`.
unsigned long CloneFlagsOf(const IsolationPlan& plan);

// In the child, after clone: what the steps below need, as plain data.
struct IsolationStep {
  bool user_namespace;
  bool pid_namespace;
  const char* uid_map;
  const char* gid_map;
  uint64_t proc_access;
};

// Maps the user and makes every mount private to the namespace. Returns 0, or
// the errno of the call that failed. Async-signal-safe.
int EnterUserNamespace(const IsolationStep& step);

// Mounts a /proc for the PID namespace and adds its Landlock rule to
// `ruleset_fd` (-1 when Landlock is not applied), since the parent's rule for
// /proc names the machine's. Returns 0, or the errno of the call that failed.
// Async-signal-safe.
int MountOwnProc(const IsolationStep& step, int ruleset_fd);

}  // namespace bravebot

#endif  // BRAVEBOT_LAUNCHER_ISOLATION_H_
