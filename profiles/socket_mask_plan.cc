#include "profiles/socket_mask_plan.h"

#include <algorithm>

#include "confine/paths.h"

namespace bravebot {
namespace {

bool BeneathAny(const std::string& path, const std::vector<BoundBackPath>& paths) {
  return std::any_of(paths.begin(), paths.end(),
                     [&](const BoundBackPath& outer) { return IsSameOrBeneath(path, outer.path); });
}

std::string Listed(const std::vector<std::string>& words) {
  std::string text;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i > 0) text += i + 1 == words.size() ? " and " : ", ";
    text += words[i];
  }
  return text;
}

}  // namespace

SocketMaskPlan PlanSocketMask(const Reach& reach) {
  std::vector<ReachPath> paths = reach.paths;
  std::sort(paths.begin(), paths.end(),
            [](const ReachPath& a, const ReachPath& b) { return a.path < b.path; });
  SocketMaskPlan plan;
  for (const std::string& place : reach.socket_places) {
    const bool given_whole = std::any_of(paths.begin(), paths.end(), [&](const ReachPath& path) {
      return IsSameOrBeneath(place, path.path);
    });
    if (given_whole) {
      plan.left_open.push_back(place);
      continue;
    }
    HiddenPlace hidden{place, {}};
    for (const ReachPath& path : paths) {
      if (!IsSameOrBeneath(path.path, place) || BeneathAny(path.path, hidden.bound_back)) continue;
      hidden.bound_back.push_back({path.path, path.file_only});
    }
    plan.hidden.push_back(std::move(hidden));
  }
  return plan;
}

std::string SocketPromiseKeptByMounts(const SocketMaskPlan& plan, int abi) {
  std::vector<std::string> hidden;
  for (const HiddenPlace& place : plan.hidden) hidden.push_back(place.path);
  std::string words = "a local socket in a directory it may only read, or outside " +
                      (hidden.empty() ? std::string("the places hidden from it") : Listed(hidden));
  if (!plan.left_open.empty()) {
    words += ", or in " + Listed(plan.left_open) + " (its reach holds them whole)";
  }
  words += ", is reachable: this kernel has Landlock ABI " + std::to_string(abi) +
           ", and ABI 9 is needed to refuse it";
  return words;
}

}  // namespace bravebot
