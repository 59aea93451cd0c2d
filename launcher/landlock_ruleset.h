// The parent's half of Landlock: asking the kernel which ABI it speaks, and
// turning a plan into a ruleset descriptor with every rule already added, so
// the child has only landlock_restrict_self left to call.
#ifndef BRAVEBOT_LAUNCHER_LANDLOCK_RULESET_H_
#define BRAVEBOT_LAUNCHER_LANDLOCK_RULESET_H_

#include "base/result.h"
#include "base/unique_fd.h"
#include "profiles/landlock_plan.h"

namespace bravebot {

// The Landlock ABI of the running kernel, or 0 when it has none (not built,
// or not enabled at boot).
int ProbeLandlockAbi();

// Creates the ruleset of `plan` (whose abi is not 0) and adds each rule,
// opening its path with O_PATH. A rule whose path is missing is skipped, since
// it grants nothing; any other failure is an error naming the path.
Result<UniqueFd> CreateLandlockRuleset(const LandlockPlan& plan);

}  // namespace bravebot

#endif  // BRAVEBOT_LAUNCHER_LANDLOCK_RULESET_H_
