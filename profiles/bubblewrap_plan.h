// A reach rendered as bubblewrap (bwrap) arguments, for the backend used
// where the kernel has no Landlock or BRAVEBOT_BACKEND=bubblewrap asks for it:
// a root of its own made of binds (read-only for what it reads, writable for
// what it writes) and read-only everywhere else, a private /tmp and /dev/shm,
// a /proc and /dev of its own,
// new user, PID, IPC, UTS and cgroup namespaces, no capability, and our
// seccomp filter loaded by bwrap as its last step before exec.
//
// Pure: no path is opened here. Each bind names a descriptor the launcher
// opened without following links and put on the number given, so a link
// planted between the check and the bind cannot redirect a grant; the
// arguments go to bwrap through `--args FD`, never on its command line,
// which every user of the machine may read (/proc/PID/cmdline), since the
// environment's values may be secrets.
//
//   BubblewrapPlan plan = PlanBubblewrap(reach, links);
//   std::string block = BubblewrapArgumentBlock(plan, {bind_fds, seccomp_fd});
//   std::vector<std::string> argv = BubblewrapCommandLine(plan, arguments_fd);
#ifndef BRAVEBOT_PROFILES_BUBBLEWRAP_PLAN_H_
#define BRAVEBOT_PROFILES_BUBBLEWRAP_PLAN_H_

#include <string>
#include <vector>

namespace bravebot {

// Named, not included: the launcher includes this header for the plan's
// types and knows no reach (scripts/layers.txt).
struct Reach;

// One path of the reach mounted at the same place in the server's root.
struct BubblewrapBind {
  std::string path;
  bool writable = false;
};

// A link of the machine's made again in the server's root, where the root
// would otherwise lack it: /bin -> usr/bin on a merged /usr, and the links of
// /etc. A link gives nothing by itself; only what it leads to, if bound,
// can be reached through it.
struct BubblewrapLink {
  std::string path;
  std::string target;  // as readlink gives it
};

struct BubblewrapPlan {
  // Parents before what lies beneath them, so that a writable directory
  // inside a read-only one is mounted over it, not hidden by it.
  std::vector<BubblewrapBind> binds;
  std::vector<BubblewrapLink> links;
  // The directories bwrap makes to hold a bind or a link, "/" among them:
  // mode 0111, so that it may pass through them and list none, as Landlock
  // lets it list no directory it was not given.
  std::vector<std::string> stand_ins;
  std::string working_directory;
  std::string program;
  std::vector<std::string> argv;
  std::vector<std::string> environment;  // NAME=value
  // What this backend cannot give of the reach, in words.
  std::vector<std::string> unkept_promises;
};

// The plan for `reach`, with `links` made where no bind covers them. Paths
// bwrap makes of its own (/proc, /dev and what lies in them) are not bound.
BubblewrapPlan PlanBubblewrap(const Reach& reach, const std::vector<BubblewrapLink>& links);

// The numbers of the descriptors bwrap is given, as the launcher opened them.
struct BubblewrapDescriptors {
  std::vector<int> binds;  // binds[i]'s, for each bind of the plan
  int seccomp = -1;        // the filter's BPF program
  int status = -1;         // where bwrap says the server's pid (--json-status-fd), if >= 0
};

// The arguments bwrap reads from `--args FD`, each ended by NUL: every
// option, the environment's values among them. The binds come after the
// private /tmp, so the server's own temporary directory, which lies in the
// machine's /tmp, is bound back over it.
std::string BubblewrapArgumentBlock(const BubblewrapPlan& plan,
                                    const BubblewrapDescriptors& descriptors);

// bwrap's own argv: `--args FD`, then the server's program and arguments,
// which bwrap reads only from its command line (as the server's own command
// line, they are every user's to read in any case). bwrap 0.8 has no
// --argv0: the server's argv[0] is its program's path.
std::vector<std::string> BubblewrapCommandLine(const BubblewrapPlan& plan, int arguments_fd);

}  // namespace bravebot

#endif  // BRAVEBOT_PROFILES_BUBBLEWRAP_PLAN_H_
