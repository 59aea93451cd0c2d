// The plan types of a Landlock ruleset, apart from how one is computed, so
// the launcher, which applies a plan, knows nothing of a reach
// (profiles/landlock_plan.h computes one from a reach).
#ifndef BRAVEBOT_PROFILES_LANDLOCK_RULES_H_
#define BRAVEBOT_PROFILES_LANDLOCK_RULES_H_

#include <cstdint>
#include <string>
#include <vector>

namespace bravebot {

struct LandlockRule {
  std::string path;
  uint64_t allowed_access;
  bool is_file;  // a rule on a file carries file rights only
};

struct LandlockPlan {
  int abi = 0;  // the ABI used; 0: this kernel has no Landlock
  // The ABI this kernel has, which may be newer than any this code knows
  // the rights of (abi is then the newest known).
  int kernel_abi = 0;
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

}  // namespace bravebot

#endif  // BRAVEBOT_PROFILES_LANDLOCK_RULES_H_
