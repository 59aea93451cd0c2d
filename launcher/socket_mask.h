// Hides the places the machine's sockets usually are (profiles/
// socket_mask_plan.h) behind empty, read-only tmpfs mounts, with the paths
// of the server's reach beneath each bound back: in its mount namespace,
// before the read-only view, Landlock and seccomp. Each path is found again
// by the child without following links and checked to be the one the parent
// saw, as launcher/verified_path.h does.
#ifndef BRAVEBOT_LAUNCHER_SOCKET_MASK_H_
#define BRAVEBOT_LAUNCHER_SOCKET_MASK_H_

#include <string>
#include <vector>

#include "launcher/verified_path.h"

namespace bravebot {

struct BindBack {
  VerifiedPath source;
  std::string relative;  // beneath its place: "a/b"
  bool is_file = false;
};

struct PlaceToHide {
  VerifiedPath place;
  std::vector<BindBack> bound_back;
};

// In the child, after fork: the same, as plain data.
struct BindBackStep {
  VerifiedPathStep source;
  const char* relative;
  bool is_file;
};

struct PlaceToHideStep {
  VerifiedPathStep place;
  const BindBackStep* bound_back;
  int bound_back_count;
};

struct SocketMaskStep {
  const PlaceToHideStep* places;
  int place_count;
  int* scratch;  // room for one descriptor per path bound back, made before fork
};

// Hides each place and binds its paths back, inside the mount namespace the
// child already has. Returns 0, or the errno of the call that failed.
// Async-signal-safe.
int HideSocketPlaces(const SocketMaskStep& step);

}  // namespace bravebot

#endif  // BRAVEBOT_LAUNCHER_SOCKET_MASK_H_
