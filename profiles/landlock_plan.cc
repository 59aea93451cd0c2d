#include "profiles/landlock_plan.h"

#include <algorithm>

#include "profiles/landlock_abi.h"

namespace bravebot {
namespace {

using namespace landlock;  // NOLINT: the rights read best unqualified here

std::string NeedsAbi(int abi, int needed) {
  return "this kernel has Landlock ABI " + std::to_string(abi) + ", and ABI " +
         std::to_string(needed) + " is needed";
}

std::vector<std::string> UnkeptPromises(int abi) {
  if (abi < 1) {
    return {
        "nothing of the reach is enforced: this kernel has no Landlock, so the server is not "
        "started"};
  }
  std::vector<std::string> promises;
  if (abi < 3) {
    promises.push_back("a file it may only read can still be emptied with truncate: " +
                       NeedsAbi(abi, 3));
  }
  if (abi < 4) promises.push_back("it can listen on a TCP port: " + NeedsAbi(abi, 4));
  if (abi < 6) {
    promises.push_back("abstract sockets and signals reach processes outside its confinement: " +
                       NeedsAbi(abi, 6));
  }
  if (abi < 9) promises.push_back(EveryLocalSocketUnkept(abi));
  return promises;
}

}  // namespace

std::string EveryLocalSocketUnkept(int abi) {
  return "every local socket is reachable: " + NeedsAbi(abi, 9);
}

uint64_t RightsFor(PathAccess access, bool is_file, int abi) {
  const uint64_t known = FilesystemRightsOf(abi);
  uint64_t rights = 0;
  switch (access) {
    case PathAccess::kRead:
      rights = kReadFile | kReadDir;
      break;
    case PathAccess::kReadExecute:
      rights = kReadFile | kReadDir | kExecute;
      break;
    case PathAccess::kReadWrite:
      // A device: read, write, and the ioctls a program makes of /dev/null.
      rights = kReadFile | kWriteFile | kTruncate | kIoctlDev;
      break;
    case PathAccess::kReadWriteExecute:
      // Its own directories: everything, connecting to sockets there included.
      rights = known;
      break;
  }
  if (is_file) rights &= kFileRights;
  return rights & known;
}

std::string LandlockAbiWords(const LandlockPlan& plan) {
  std::string words = "Landlock ABI " + std::to_string(plan.abi);
  if (plan.kernel_abi > plan.abi) {
    words += " (this kernel has ABI " + std::to_string(plan.kernel_abi) +
             ", whose newer rights bravebot-mcp leaves unhandled)";
  }
  return words;
}

LandlockPlan PlanLandlock(const Reach& reach, int abi) {
  LandlockPlan plan;
  plan.abi = std::clamp(abi, 0, kNewestKnownAbi);
  plan.kernel_abi = std::max(abi, 0);
  plan.unkept_promises = UnkeptPromises(plan.abi);
  if (plan.abi == 0) return plan;
  plan.handled_access_fs = FilesystemRightsOf(plan.abi);
  plan.handled_access_net = HandledNetworkRightsOf(plan.abi);
  plan.scoped = ScopesOf(plan.abi);
  for (const ReachPath& path : reach.paths) {
    plan.rules.push_back(
        {path.path, RightsFor(path.access, path.file_only, plan.abi), path.file_only});
  }
  return plan;
}

}  // namespace bravebot
