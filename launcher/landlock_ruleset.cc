#include "launcher/landlock_ruleset.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "profiles/landlock_abi.h"

namespace bravebot {

int ProbeLandlockAbi() {
  long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, landlock::kCreateRulesetVersion);
  return abi < 0 ? 0 : static_cast<int>(abi);
}

Result<UniqueFd> CreateLandlockRuleset(const LandlockPlan& plan,
                                       std::vector<VerifiedPath>* opened) {
  landlock::RulesetAttr attr{plan.handled_access_fs, plan.handled_access_net, plan.scoped};
  UniqueFd ruleset(
      static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0)));
  if (!ruleset.valid()) return Error::FromErrno("create the Landlock ruleset");

  for (const LandlockRule& rule : plan.rules) {
    VerifiedPath identity;
    struct stat status;
    Result<UniqueFd> path = OpenWithoutLinks(rule.path, &identity, &status);
    if (!path) {
      if (path.error().errno_value() == ENOENT) continue;
      return path.error();
    }
    if (opened != nullptr) opened->push_back(identity);
    // The reach said file or directory when it was computed; trust what is
    // there now, since a rule with directory rights on a file is refused.
    uint64_t allowed = rule.allowed_access;
    if (!S_ISDIR(status.st_mode)) allowed &= landlock::kFileRights;
    landlock::PathBeneathAttr beneath{allowed, path->get()};
    if (::syscall(SYS_landlock_add_rule, ruleset.get(), landlock::kRulePathBeneath, &beneath, 0) !=
        0) {
      return Error::FromErrno("add the Landlock rule for " + rule.path);
    }
  }
  return ruleset;
}

}  // namespace bravebot
