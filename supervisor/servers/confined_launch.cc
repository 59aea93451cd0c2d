#include "supervisor/servers/confined_launch.h"

#include <algorithm>

#include "launcher/bubblewrap_launch.h"
#include "launcher/filesystem_view.h"
#include "launcher/landlock_ruleset.h"
#include "profiles/compiled_seccomp.h"

namespace bravebot {
namespace {

std::vector<std::string> EnvironmentWords(const Reach& reach) {
  std::vector<std::string> words;
  for (const ReachVariable& variable : reach.environment) {
    words.push_back(variable.name + "=" + variable.value);
  }
  return words;
}

// A path as the Landlock rule's open found it, or found now; nothing where it
// is missing, since it grants nothing.
Result<std::optional<VerifiedPath>> IdentityOf(const std::string& path,
                                               const std::vector<VerifiedPath>& opened) {
  auto found = std::find_if(opened.begin(), opened.end(),
                            [&](const VerifiedPath& one) { return one.path == path; });
  if (found != opened.end()) return std::optional<VerifiedPath>(*found);
  VerifiedPath identity;
  Result<UniqueFd> fd = OpenWithoutLinks(path, &identity);
  if (!fd && fd.error().errno_value() == ENOENT) return std::optional<VerifiedPath>();
  if (!fd) return fd.error();
  return std::optional<VerifiedPath>(identity);
}

// The directories it may write, each as the Landlock rule's open found it
// (or found now, where no ruleset was made).
Result<std::vector<VerifiedPath>> WritableDirectories(const Reach& reach,
                                                      const std::vector<VerifiedPath>& opened) {
  std::vector<VerifiedPath> writable;
  for (const ReachPath& path : reach.paths) {
    if (path.access != PathAccess::kReadWriteExecute || path.file_only) continue;
    BRAVEBOT_ASSIGN_OR_RETURN(std::optional<VerifiedPath> identity, IdentityOf(path.path, opened));
    if (!identity) return Error::FromErrno("open " + path.path, ENOENT);
    writable.push_back(*identity);
  }
  return writable;
}

// The places of `mask`, each with what goes back beneath it, as found now.
Result<std::vector<PlaceToHide>> PlacesToHide(const SocketMaskPlan& mask,
                                              const std::vector<VerifiedPath>& opened) {
  std::vector<PlaceToHide> places;
  for (const HiddenPlace& hidden : mask.hidden) {
    BRAVEBOT_ASSIGN_OR_RETURN(std::optional<VerifiedPath> place, IdentityOf(hidden.path, opened));
    if (!place) continue;
    PlaceToHide to_hide{*place, {}};
    for (const BoundBackPath& back : hidden.bound_back) {
      BRAVEBOT_ASSIGN_OR_RETURN(std::optional<VerifiedPath> source, IdentityOf(back.path, opened));
      if (!source) continue;
      to_hide.bound_back.push_back(
          {*source, back.path.substr(hidden.path.size() + 1), back.is_file});
    }
    places.push_back(std::move(to_hide));
  }
  return places;
}

Result<VerifiedPath> FindVerified(const std::string& path,
                                  const std::vector<VerifiedPath>& writable) {
  for (const VerifiedPath& one : writable) {
    if (one.path == path) return one;
  }
  return Error(ErrorCode::kSystem, path + " is not among the directories the server may write");
}

// The filter of a server in namespaces of its own, or in the machine's.
const Result<SeccompProgram>& SeccompFilter(bool in_namespaces) {
  return CompiledSeccompProgram({in_namespaces});
}

// Under bubblewrap the server is its PID namespace's first process: it keeps
// the death signal that ends it when bwrap ends.
const Result<SeccompProgram>& BubblewrapSeccompFilter() {
  return CompiledSeccompProgram({true, true});
}

// Our launcher's: namespaces, the read-only view, Landlock, seccomp last.
Result<LaunchedChild> LaunchUnderLandlock(const Confinement& confinement,
                                          const ServerStartOptions& options) {
  LaunchRequest request;
  std::vector<VerifiedPath> opened;
  if (options.layers.landlock) {
    Result<UniqueFd> ruleset = CreateLandlockRuleset(confinement.landlock, &opened);
    if (!ruleset) return ruleset.error();
    request.landlock_ruleset = std::move(*ruleset);
  } else {
    request.without_landlock = true;
  }
  const Result<SeccompProgram>& seccomp = SeccompFilter(confinement.isolation.user_namespace);
  if (!seccomp) return seccomp.error();
  const Reach& reach = confinement.reach;
  Result<std::vector<VerifiedPath>> writable = WritableDirectories(reach, opened);
  if (!writable) return writable.error();
  Result<VerifiedPath> working_directory = FindVerified(reach.working_directory, *writable);
  if (!working_directory) return working_directory.error();

  request.program = reach.program;
  request.argv = reach.argv;
  request.environment = EnvironmentWords(reach);
  request.working_directory = std::move(*working_directory);
  request.seccomp = *seccomp;
  request.capabilities = PlanCapabilities();
  request.isolation = confinement.isolation;
  if (confinement.socket_mask && options.layers.hide_socket_places) {
    Result<std::vector<PlaceToHide>> hidden = PlacesToHide(*confinement.socket_mask, opened);
    if (!hidden) return hidden.error();
    request.hidden_places = std::move(*hidden);
  }
  request.view = PlanFilesystemView(
      std::move(*writable), request.isolation.user_namespace && options.layers.read_only_view);
  // In its own user namespace it holds every capability there: drop them too.
  if (request.isolation.user_namespace) request.capabilities.drop = true;
  request.stdio = options.stdio;
  return Launch(request);
}

// bwrap's namespaces and binds, with our seccomp filter loaded last by bwrap.
Result<LaunchedChild> LaunchUnderBubblewrap(const Confinement& confinement,
                                            const ServerStartOptions& options) {
  const Result<SeccompProgram>& seccomp = BubblewrapSeccompFilter();
  if (!seccomp) return seccomp.error();
  BubblewrapLaunchRequest request{confinement.bubblewrap, *seccomp, options.stdio};
  return LaunchInBubblewrap(request);
}

}  // namespace

Result<LaunchedConfinement> ConfineAndLaunch(Reach reach, const ServerStartOptions& options,
                                             const std::string& alias, const KernelFacts& kernel) {
  BRAVEBOT_ASSIGN_OR_RETURN(Confinement confinement,
                            ConfineServerReach(std::move(reach), options, alias, kernel));
  if (confinement.backend.backend == Backend::kNone) {
    return Error(ErrorCode::kNotStarted,
                 alias + " was not started: " + confinement.backend.why_none);
  }
  BRAVEBOT_ASSIGN_OR_RETURN(LaunchedChild child, confinement.backend.backend == Backend::kBubblewrap
                                                     ? LaunchUnderBubblewrap(confinement, options)
                                                     : LaunchUnderLandlock(confinement, options));
  return LaunchedConfinement{std::move(confinement), std::move(child)};
}

}  // namespace bravebot
