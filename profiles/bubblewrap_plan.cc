#include "profiles/bubblewrap_plan.h"

#include <algorithm>
#include <set>

#include "confine/paths.h"
#include "confine/reach.h"

namespace bravebot {
namespace {

// What of /proc writes the kernel's settings rather than a process's own.
constexpr const char* kKernelSettings[] = {
    "/proc/sys", "/proc/sysrq-trigger", "/proc/irq",    "/proc/bus",
    "/proc/fs",  "/proc/pressure",      "/proc/sysvipc"};

// bwrap makes these of its own (--proc, --dev, --tmpfs): the machine's are
// never bound.
bool MadeByBubblewrap(const std::string& path) {
  return IsSameOrBeneath(path, "/proc") || IsSameOrBeneath(path, "/dev");
}

bool CoveredByBind(const std::string& path, const std::vector<BubblewrapBind>& binds) {
  return std::any_of(binds.begin(), binds.end(),
                     [&](const BubblewrapBind& bind) { return IsSameOrBeneath(path, bind.path); });
}

// Every directory above a bind or a link that no bind covers: bwrap makes
// each in its root, empty but for what it holds.
std::vector<std::string> StandIns(const BubblewrapPlan& plan) {
  std::set<std::string> stand_ins;
  const auto add_above = [&](const std::string& path) {
    for (std::string above = ParentPath(path); !above.empty(); above = ParentPath(above)) {
      if (!CoveredByBind(above, plan.binds)) stand_ins.insert(above);
      if (above == "/") break;
    }
  };
  for (const BubblewrapBind& bind : plan.binds) add_above(bind.path);
  for (const BubblewrapLink& link : plan.links) add_above(link.path);
  return {stand_ins.begin(), stand_ins.end()};
}

std::vector<std::string> UnkeptPromises() {
  // Each promise a sentence, over as many literals as it needs.
  // NOLINTBEGIN(bugprone-suspicious-missing-comma)
  return {
      "a look at any path: paths outside its binds do not exist for it (no look at them), "
      "since bubblewrap gives it a root made of its binds alone",
      "it can listen on a TCP port: bubblewrap has no rule for binding ports",
      "abstract sockets reach processes outside its confinement: it shares the machine's "
      "network namespace, which its network needs, and bubblewrap scopes no socket",
      "a local socket is reachable in every directory it may read, not only in those it may "
      "write: a read-only bind does not refuse a connect",
      "its environment holds PWD too, its working directory: bwrap sets it",
  };
  // NOLINTEND(bugprone-suspicious-missing-comma)
}

void Append(std::string& block, const std::string& word) { block.append(word).push_back('\0'); }

}  // namespace

BubblewrapPlan PlanBubblewrap(const Reach& reach, const std::vector<BubblewrapLink>& links) {
  BubblewrapPlan plan;
  for (const ReachPath& path : reach.paths) {
    if (MadeByBubblewrap(path.path)) continue;
    const bool writable =
        path.access == PathAccess::kReadWriteExecute || path.access == PathAccess::kReadWrite;
    plan.binds.push_back({path.path, writable});
  }
  // A string sorts before every string it is a prefix of, so a directory
  // comes before what lies beneath it.
  std::sort(plan.binds.begin(), plan.binds.end(),
            [](const BubblewrapBind& a, const BubblewrapBind& b) { return a.path < b.path; });
  // What lies beneath a writable bind is the server's to write already
  // (it may make a file there and rename it over, as Landlock's rights on
  // the directory let it too): a bind of its own would only be a mount
  // point, which a rename over it fails on (EBUSY), breaking a server that
  // saves its file so.
  std::vector<BubblewrapBind> kept;
  for (BubblewrapBind& bind : plan.binds) {
    const bool beneath_writable =
        std::any_of(kept.begin(), kept.end(), [&](const BubblewrapBind& k) {
          return k.writable && k.path != bind.path && IsSameOrBeneath(bind.path, k.path);
        });
    if (!beneath_writable) kept.push_back(std::move(bind));
  }
  plan.binds = std::move(kept);
  for (const BubblewrapLink& link : links) {
    if (MadeByBubblewrap(link.path) || CoveredByBind(link.path, plan.binds)) continue;
    // Beneath another link, it is made already where that one leads, or
    // could not be made at all.
    const bool beneath_a_link =
        std::any_of(links.begin(), links.end(), [&](const BubblewrapLink& other) {
          return other.path != link.path && IsSameOrBeneath(link.path, other.path);
        });
    if (!beneath_a_link) plan.links.push_back(link);
  }
  plan.stand_ins = StandIns(plan);
  plan.working_directory = reach.working_directory;
  plan.program = reach.program;
  plan.argv = reach.argv;
  for (const ReachVariable& variable : reach.environment) {
    std::string word = variable.name;
    word.append("=").append(variable.value);
    plan.environment.push_back(std::move(word));
  }
  plan.unkept_promises = UnkeptPromises();
  return plan;
}

std::string BubblewrapArgumentBlock(const BubblewrapPlan& plan,
                                    const BubblewrapDescriptors& descriptors) {
  std::string block;
  // New user, PID, IPC, UTS and cgroup namespaces, and not the network: the
  // reach gives it the network by IP address. Further user namespaces are
  // refused inside (seccomp refuses them too); as root, bwrap would keep
  // every capability without --cap-drop. The server is the first process of
  // its PID namespace: bwrap's own init would run beside it without the
  // seccomp filter, with memory the server could write (/proc/1/mem: same
  // user, dumpable), a way around the filter.
  for (const char* word : {"--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
                           "--unshare-cgroup-try", "--disable-userns", "--as-pid-1", "--cap-drop",
                           "ALL", "--die-with-parent", "--new-session"}) {
    Append(block, word);
  }
  for (const char* word :
       {"--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--tmpfs", "/dev/shm"}) {
    Append(block, word);
  }
  // The kernel's settings in its /proc, read-only. Writing one needs no
  // capability, only to be root, and root in bwrap's user namespace is the
  // machine's root: a server run by root could otherwise set
  // kernel.core_pattern to a program of its own, run as root outside every
  // namespace at the next crash. bwrap covers /proc/sys only where its own
  // check lets it, which fails for root on the 0555 directory.
  for (const char* path : kKernelSettings) {
    Append(block, "--ro-bind-try");
    Append(block, path);
    Append(block, path);
  }
  for (size_t i = 0; i < plan.binds.size(); ++i) {
    Append(block, plan.binds[i].writable ? "--bind-fd" : "--ro-bind-fd");
    Append(block, std::to_string(i < descriptors.binds.size() ? descriptors.binds[i] : -1));
    Append(block, plan.binds[i].path);
  }
  for (const BubblewrapLink& link : plan.links) {
    Append(block, "--symlink");
    Append(block, link.target);
    Append(block, link.path);
  }
  for (const std::string& stand_in : plan.stand_ins) {
    Append(block, "--chmod");
    Append(block, "0111");
    Append(block, stand_in);
  }
  // Then nothing of its root is writable but its binds: the root bwrap made,
  // /dev, and the private /tmp and /dev/shm, as the reach gives no /tmp and
  // no shared memory. A device stays writable on a read-only mount.
  for (const char* path : {"/tmp", "/dev/shm", "/dev", "/"}) {
    Append(block, "--remount-ro");
    Append(block, path);
  }
  Append(block, "--chdir");
  Append(block, plan.working_directory);
  Append(block, "--clearenv");
  for (const std::string& variable : plan.environment) {
    const size_t equals = variable.find('=');
    Append(block, "--setenv");
    Append(block, variable.substr(0, equals));
    Append(block, equals == std::string::npos ? "" : variable.substr(equals + 1));
  }
  Append(block, "--seccomp");
  Append(block, std::to_string(descriptors.seccomp));
  if (descriptors.status >= 0) {
    Append(block, "--json-status-fd");
    Append(block, std::to_string(descriptors.status));
  }
  return block;
}

std::vector<std::string> BubblewrapCommandLine(const BubblewrapPlan& plan, int arguments_fd) {
  std::vector<std::string> words = {"bwrap", "--args", std::to_string(arguments_fd), "--",
                                    plan.program};
  for (size_t i = 1; i < plan.argv.size(); ++i) words.push_back(plan.argv[i]);
  return words;
}

}  // namespace bravebot
