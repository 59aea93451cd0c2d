// The socket promise below Landlock ABI 9: a server reaches a local socket
// only in a directory it may write, and until ABI 9 Landlock cannot refuse
// connecting to one. In the mount namespace the server already has, each
// place the machine's sockets usually are (Reach::socket_places) is covered
// by an empty, read-only tmpfs, and the paths of the reach beneath it are
// bound back, so only what it reaches is there to connect to. This computes
// which paths go back where; launcher/socket_mask.h does it. Pure.
//
//   SocketMaskPlan plan = PlanSocketMask(reach);
//   for (const HiddenPlace& place : plan.hidden) ... place.bound_back ...
#ifndef BRAVEBOT_PROFILES_SOCKET_MASK_PLAN_H_
#define BRAVEBOT_PROFILES_SOCKET_MASK_PLAN_H_

#include <string>
#include <vector>

#include "confine/reach.h"

namespace bravebot {

struct BoundBackPath {
  std::string path;
  bool is_file = false;
};

struct HiddenPlace {
  std::string path;
  // The reach's paths beneath it, outermost only (a bind takes what is
  // beneath along), sorted.
  std::vector<BoundBackPath> bound_back;
};

struct SocketMaskPlan {
  std::vector<HiddenPlace> hidden;
  // Places the reach gives whole (a path of it is the place or holds it):
  // hiding them would take away what it was given, so they stay as they are.
  std::vector<std::string> left_open;
};

SocketMaskPlan PlanSocketMask(const Reach& reach);

// The reach's words for what the mask leaves: a socket where it may only
// read, or outside the hidden places, is still reachable. `abi` is below 9.
std::string SocketPromiseKeptByMounts(const SocketMaskPlan& plan, int abi);

}  // namespace bravebot

#endif  // BRAVEBOT_PROFILES_SOCKET_MASK_PLAN_H_
