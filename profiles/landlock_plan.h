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

#include "confine/reach.h"
#include "profiles/landlock_rules.h"

namespace bravebot {

// The plan for `reach` on a kernel whose Landlock ABI is `abi` (0 when it
// has none; above the newest known ABI, as the newest known).
LandlockPlan PlanLandlock(const Reach& reach, int abi);

// "Landlock ABI 9"; where the kernel has a newer one than this code knows,
// "Landlock ABI 9 (this kernel has ABI 11, whose newer rights bravebot-mcp
// leaves unhandled)": a newer kernel is never mistaken for an older one.
std::string LandlockAbiWords(const LandlockPlan& plan);

// The unkept promise of sockets below ABI 9, as `abi` (1 to 8) words it.
std::string EveryLocalSocketUnkept(int abi);

// The rights a path of the reach is given, for `abi`.
uint64_t RightsFor(PathAccess access, bool is_file, int abi);

}  // namespace bravebot

#endif  // BRAVEBOT_PROFILES_LANDLOCK_PLAN_H_
