// A reach rendered as a Landlock ruleset for one ABI: which rights the
// ruleset handles (every file right that ABI knows, so nothing it knows is
// left allowed by omission, and binding a TCP port), one path-beneath rule
// per path of the reach, the scopes, and in words every promise of the reach
// this ABI cannot keep.
// Pure: no descriptor is opened here (launcher/ does that).
//
//   LandlockPlan plan = PlanLandlock(reach, /*abi=*/7);
//   for (const std::string& promise : plan.unkept_promises) std::cout << promise;
#ifndef BRAVEBOT_PROFILES_LANDLOCK_PLAN_H_
#define BRAVEBOT_PROFILES_LANDLOCK_PLAN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "confine/reach.h"

namespace bravebot {

struct LandlockRule {
  std::string path;
  uint64_t allowed_access;
  bool is_file;  // a rule on a file carries file rights only
};

struct LandlockPlan {
  int abi = 0;  // 0: this kernel has no Landlock
  uint64_t handled_access_fs = 0;
  // Binding a TCP port, from ABI 4, with no rule allowing a port.
  uint64_t handled_access_net = 0;
  uint64_t scoped = 0;
  std::vector<LandlockRule> rules;
  // What the reach promises and this ABI cannot enforce, each a sentence:
  // "every local socket is reachable: this kernel has Landlock ABI 7, and ABI
  // 9 is needed".
  std::vector<std::string> unkept_promises;
};

// The plan for `reach` on a kernel whose Landlock ABI is `abi` (0 when it
// has none; above the newest known ABI, as the newest known).
LandlockPlan PlanLandlock(const Reach& reach, int abi);

// The rights a path of the reach is given, for `abi`.
uint64_t RightsFor(PathAccess access, bool is_file, int abi);

}  // namespace bravebot

#endif  // BRAVEBOT_PROFILES_LANDLOCK_PLAN_H_
