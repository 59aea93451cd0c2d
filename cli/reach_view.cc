#include "cli/reach_view.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "base/shown_text.h"
#include "cli/declaration_view.h"
#include "confine/digest.h"
#include "confine/system_paths.h"
#include "launcher/bubblewrap_program.h"
#include "profiles/landlock_plan.h"

namespace bravebot {
namespace {

constexpr char kWhatALookGives[] =
    "whether something is there and what kind of thing it is, not what a file holds or what a "
    "directory lists";

std::string HiddenPlaces(const SocketMaskPlan& mask) {
  std::string text;
  for (size_t i = 0; i < mask.hidden.size(); ++i) {
    if (i > 0) text += i + 1 == mask.hidden.size() ? " and " : ", ";
    text += DisplayWord(mask.hidden[i].path);
  }
  return text;
}

bool UnderBubblewrap(const Confinement& confinement) {
  return confinement.backend.backend == Backend::kBubblewrap;
}

std::string LookAtPaths(const Confinement& confinement) {
  if (UnderBubblewrap(confinement)) {
    return "no look at a path outside what it may reach: under bubblewrap it is not there";
  }
  if (!confinement.socket_mask || confinement.socket_mask->hidden.empty()) {
    return std::string("a look at any path: ") + kWhatALookGives;
  }
  return "a look at any path but what else is in " + HiddenPlaces(*confinement.socket_mask) + ": " +
         kWhatALookGives;
}

// A run of system paths shown as one line unless the person asks for each:
// at least this many rows of one system reason in one top-level directory.
constexpr size_t kShortestRunSummed = 4;

// Where a path's run is counted: its top-level directory ("/etc" of
// "/etc/ssl/certs") and the reason it is given.
std::pair<std::string, std::string> RunOf(const ReachPath& path) {
  const size_t second_slash = path.path.find('/', 1);
  return {path.path.substr(0, second_slash), path.reason};
}

// The rows of one heading, each path beside its reason. Unless `verbose`,
// a run of kShortestRunSummed rows or more of one system reason in one top-level
// directory (the /etc entries) is one line, where its first row was.
std::string PathRows(const Reach& reach, PathAccess access, bool verbose) {
  // A row is summed only where it is the system's: given for a system
  // reason, in a system tree; never the top-level directory itself.
  const auto summable = [&](const ReachPath& path) {
    return !verbose && path.access == access && IsSystemPathReason(path.reason) &&
           IsInSystemTree(path.path) && RunOf(path).first != path.path;
  };
  std::map<std::pair<std::string, std::string>, size_t> run_lengths;
  for (const ReachPath& path : reach.paths) {
    if (summable(path)) ++run_lengths[RunOf(path)];
  }
  std::vector<std::pair<std::string, std::string>> shown_rows;
  std::set<std::pair<std::string, std::string>> summed;
  for (const ReachPath& path : reach.paths) {
    if (path.access != access) continue;
    const std::pair<std::string, std::string> run = RunOf(path);
    const size_t length = summable(path) ? run_lengths[run] : 0;
    if (length < kShortestRunSummed) {
      shown_rows.emplace_back(DisplayWord(path.path), EscapeControlCharacters(path.reason));
    } else if (summed.insert(run).second) {
      shown_rows.emplace_back(std::to_string(length) + " entries in " + DisplayWord(run.first),
                              EscapeControlCharacters(path.reason) + " (--verbose lists each)");
    }
  }
  size_t width = 0;
  for (const auto& [shown, reason] : shown_rows) width = std::max(width, shown.size());
  std::string rows;
  for (const auto& [shown, reason] : shown_rows) {
    rows += "    " + shown + std::string(width + 2 - shown.size(), ' ') + reason + "\n";
  }
  return rows;
}

std::string Heading(PathAccess access) {
  switch (access) {
    case PathAccess::kReadWriteExecute:
      return "reads, writes and runs";
    case PathAccess::kReadExecute:
      return "reads and runs";
    case PathAccess::kReadWrite:
      return "reads and writes";
    case PathAccess::kRead:
      return "reads";
  }
  return "reads";
}

std::string Processes(const IsolationPlan& isolation) {
  return isolation.pid_namespace
             ? "processes: a PID namespace of its own: it sees no process of the machine's, and "
               "whatever it starts ends with it"
             : "processes: the machine's (see below); what it leaves running is found and ended "
               "when it stops";
}

// From ABI 4, Landlock keeps it from binding a TCP port; bubblewrap cannot.
bool RefusesListening(const Confinement& confinement) {
  return !UnderBubblewrap(confinement) && confinement.landlock.abi >= 4;
}

std::string Network(const Confinement& confinement) {
  return RefusesListening(confinement)
             ? "every address, by IP, to connect to; no TCP port to listen on"
             : "every address, by IP, and any TCP port to listen on";
}

std::string LocalSockets(const Confinement& confinement) {
  if (UnderBubblewrap(confinement)) {
    return "local sockets: those in the directories it may read or write (see below)";
  }
  if (confinement.landlock.abi >= 9) {
    return "local sockets: only those in the directories it may write";
  }
  if (!confinement.socket_mask) return "local sockets: every one (see below)";
  return "local sockets: those in the directories it may write; " +
         HiddenPlaces(*confinement.socket_mask) +
         " are hidden from it but for its own paths there, each an empty read-only mount with "
         "them bound back; a socket elsewhere stays reachable (see below)";
}

// Which mechanism keeps the promise of local sockets.
std::string SocketPromiseKeeper(const Confinement& confinement) {
  if (UnderBubblewrap(confinement)) return "bubblewrap";
  if (confinement.landlock.abi >= 9) return "landlock";
  return confinement.socket_mask ? "mounts" : "nothing";
}

std::vector<std::string> HiddenPlacePaths(const Confinement& confinement) {
  std::vector<std::string> paths;
  if (!confinement.socket_mask) return paths;
  for (const HiddenPlace& place : confinement.socket_mask->hidden) paths.push_back(place.path);
  return paths;
}

}  // namespace

std::string Enforcement(const Confinement& confinement) {
  const LandlockPlan& landlock = confinement.landlock;
  std::string text;
  const std::vector<std::string>* promises = &landlock.unkept_promises;
  switch (confinement.backend.backend) {
    case Backend::kNone:
      return "nothing enforces it here, so the server is not started: " +
             EscapeControlCharacters(confinement.backend.why_none) + "\n";
    case Backend::kBubblewrap:
      text = ProbeBubblewrapOnce().version + " (" + kBubblewrapPath +
             ") enforces it with binds, user, PID and IPC namespaces, seccomp and dropped "
             "capabilities";
      promises = &confinement.bubblewrap.unkept_promises;
      break;
    case Backend::kLandlock:
      text = "this kernel enforces it with " + LandlockAbiWords(landlock) +
             (confinement.socket_mask
                  ? ", seccomp, dropped capabilities and a mount over each place of others' "
                    "sockets"
                  : ", seccomp and dropped capabilities");
      break;
  }
  text += promises->empty() ? ", all of it\n" : ", except:\n";
  for (const std::string& promise : *promises) text += "  " + promise + "\n";
  return text;
}

const std::vector<std::string>& UnkeptPromises(const Confinement& confinement) {
  return UnderBubblewrap(confinement) ? confinement.bubblewrap.unkept_promises
                                      : confinement.landlock.unkept_promises;
}

std::string DisplayReach(const Declaration& declaration, const Confinement& confinement,
                         bool verbose) {
  const Reach& reach = confinement.reach;
  std::string text = "  " + declaration.alias + "   stdio   " + DisplayCommandLine(declaration) +
                     "\n" + "    digest: " + ComputeDigest(declaration).hex + "\n" + "    runs " +
                     DisplayWord(reach.program) + "\n" + "    starts in " +
                     DisplayWord(reach.working_directory) + "\n\n";
  std::string environment;
  for (const ReachVariable& variable : reach.environment) {
    environment += "    " + variable.name + " (" + variable.reason + ")\n";
  }
  text += "  environment, and nothing else:\n" + environment;
  for (const std::string& name : reach.unset_variables) {
    text += "    " + name + " is named, and unset where it starts: left out\n";
  }
  for (PathAccess access : {PathAccess::kReadWriteExecute, PathAccess::kReadExecute,
                            PathAccess::kReadWrite, PathAccess::kRead}) {
    std::string rows = PathRows(reach, access, verbose);
    if (!rows.empty()) text += "\n  " + Heading(access) + ":\n" + rows;
  }
  if (!reach.not_granted.empty()) {
    text += "\n  not given:\n";
    for (const NotGranted& refused : reach.not_granted) {
      text +=
          "    " + DisplayWord(refused.path) + ": " + EscapeControlCharacters(refused.why) + "\n";
    }
  }
  text += "\n  the network: " + Network(confinement) +
          (RefusesListening(confinement) ? "" : " (see below)") + "\n  " +
          LocalSockets(confinement) + "\n  " + Processes(confinement.isolation) + "\n  " +
          LookAtPaths(confinement) +
          "\n  nothing else: the rest of your home, the workspace, other "
          "servers' homes and the profile directory's files\n\n";
  return text + Enforcement(confinement);
}

nlohmann::json ReachJson(const Declaration& declaration, const Confinement& confinement) {
  const Reach& reach = confinement.reach;
  const LandlockPlan& landlock = confinement.landlock;
  const bool bubblewrap = UnderBubblewrap(confinement);
  nlohmann::json environment = nlohmann::json::array();
  for (const ReachVariable& variable : reach.environment) {
    environment.push_back({{"name", variable.name}, {"reason", variable.reason}});
  }
  nlohmann::json paths = nlohmann::json::array();
  for (const ReachPath& path : reach.paths) {
    paths.push_back({{"path", path.path},
                     {"access", PathAccessName(path.access)},
                     {"file_only", path.file_only},
                     {"reason", path.reason}});
  }
  nlohmann::json not_given = nlohmann::json::array();
  for (const NotGranted& refused : reach.not_granted) {
    not_given.push_back({{"path", refused.path}, {"why", refused.why}});
  }
  return {{"alias", declaration.alias},
          {"digest", ComputeDigest(declaration).hex},
          {"program", reach.program},
          {"argv", reach.argv},
          {"working_directory", reach.working_directory},
          {"home", reach.home},
          {"temporary_directory", reach.temporary_directory},
          {"environment", environment},
          {"unset_variables", reach.unset_variables},
          {"paths", paths},
          {"not_given", not_given},
          {"network", Network(confinement)},
          {"local_sockets", bubblewrap                ? "in the directories it may read or write"
                            : landlock.abi >= 9       ? "in the directories it may write"
                            : confinement.socket_mask ? "in the directories it may write, and any "
                                                        "outside the hidden places"
                                                      : "every one"},
          {"look_at_any_path", !bubblewrap},
          {"socket_directories", reach.socket_directories},
          {"socket_promise_kept_by", SocketPromiseKeeper(confinement)},
          {"hidden_places", HiddenPlacePaths(confinement)},
          {"processes",
           confinement.isolation.pid_namespace ? "a PID namespace of its own" : "the machine's"},
          {"read_only_view", confinement.isolation.user_namespace},
          {"backend", BackendName(confinement.backend.backend)},
          {"not_started_because", confinement.backend.why_none},
          {"landlock_abi", landlock.abi},
          {"kernel_landlock_abi", landlock.kernel_abi},
          {"unkept_promises", UnkeptPromises(confinement)}};
}

}  // namespace bravebot
