#include "confine/reach_paths.h"

#include <algorithm>

#include "confine/paths.h"

namespace bravebot {

std::string_view PathAccessName(PathAccess access) {
  switch (access) {
    case PathAccess::kRead:
      return "read";
    case PathAccess::kReadExecute:
      return "read, execute";
    case PathAccess::kReadWrite:
      return "read, write";
    case PathAccess::kReadWriteExecute:
      return "read, write, execute";
  }
  return "read";
}

namespace {

// The access that allows everything either allows.
PathAccess Union(PathAccess a, PathAccess b) {
  if (a == b || b == PathAccess::kRead) return a;
  if (a == PathAccess::kRead) return b;
  return PathAccess::kReadWriteExecute;
}

}  // namespace

void ReachPaths::Grant(const std::string& path, PathAccess access, GrantExtent extent,
                       std::string reason) {
  const bool file_only = extent == GrantExtent::kFileOnly;
  for (ReachPath& granted : granted_) {
    if (granted.path == path) {
      granted.access = Union(granted.access, access);
      granted.file_only = granted.file_only && file_only;
      return;
    }
  }
  granted_.push_back({path, access, file_only, std::move(reason)});
}

void ReachPaths::Refuse(const std::string& path, std::string why) {
  for (const NotGranted& refused : not_granted_) {
    if (refused.path == path && refused.why == why) return;
  }
  not_granted_.push_back({path, std::move(why)});
}

bool ReachPaths::Covers(const std::string& path) const {
  return std::any_of(granted_.begin(), granted_.end(), [&](const ReachPath& granted) {
    return granted.file_only ? granted.path == path : IsSameOrBeneath(path, granted.path);
  });
}

}  // namespace bravebot
