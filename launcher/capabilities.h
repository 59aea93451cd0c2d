// Capabilities: a server run by root keeps uid 0 and holds none of them. The
// plan is made in the parent with libcap; the child only makes the calls.
#ifndef BRAVEBOT_LAUNCHER_CAPABILITIES_H_
#define BRAVEBOT_LAUNCHER_CAPABILITIES_H_

namespace bravebot {

struct CapabilityPlan {
  // The process holds some capability (it runs as root, or was given one):
  // drop the bounding set, clear every set, and lock root's special powers
  // off. Without one, there is nothing to drop, and no-new-privs keeps it so.
  bool drop = false;
  int last_capability = 0;  // the highest capability number this kernel knows
};

CapabilityPlan PlanCapabilities();

// In the child, after fork: drops every capability as `plan` says. Returns 0,
// or the errno of the call that failed. Async-signal-safe.
int DropCapabilities(const CapabilityPlan& plan);

}  // namespace bravebot

#endif  // BRAVEBOT_LAUNCHER_CAPABILITIES_H_
