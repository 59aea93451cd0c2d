// The parent's half of Landlock: asking the kernel which ABI it speaks, and
// turning a plan into a ruleset descriptor with every rule already added, so
// the child has only landlock_restrict_self left to call.
#ifndef BRAVEBOT_LAUNCHER_LANDLOCK_RULESET_H_
#define BRAVEBOT_LAUNCHER_LANDLOCK_RULESET_H_

#include <vector>

#include "base/result.h"
#include "base/unique_fd.h"
#include "launcher/verified_path.h"
#include "profiles/landlock_rules.h"

namespace bravebot {

// The Landlock ABI of the running kernel, or 0 when it has none (not built,
// or not enabled at boot).
int ProbeLandlockAbi();

// Creates the ruleset of `plan` (whose abi is not 0) and adds each rule,
// opening its path with O_PATH and without following any link (the reach
// holds resolved paths only), so that a rule is on exactly the path that was
// checked. A rule whose path is missing is skipped, since it grants nothing; a
// path that became a link is refused, and any other failure is an error
// naming the path. Each path opened is recorded in `opened` when given.
Result<UniqueFd> CreateLandlockRuleset(const LandlockPlan& plan,
                                       std::vector<VerifiedPath>* opened = nullptr);

}  // namespace bravebot

#endif  // BRAVEBOT_LAUNCHER_LANDLOCK_RULESET_H_
