#include "confine/reach_paths.h"

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
  if (auto found = index_.find(path); found != index_.end()) {
    ReachPath& granted = granted_[found->second];
    granted.access = Union(granted.access, access);
    granted.file_only = granted.file_only && file_only;
    return;
  }
  index_.emplace(path, granted_.size());
  granted_.push_back({path, access, file_only, std::move(reason)});
}

void ReachPaths::Refuse(const std::string& path, std::string why) {
  for (const NotGranted& refused : not_granted_) {
    if (refused.path == path && refused.why == why) return;
  }
  not_granted_.push_back({path, std::move(why)});
}

bool ReachPaths::Covers(const std::string& path) const {
  if (index_.contains(path)) return true;  // granted itself, as a file or a directory
  // Else a directory granted whole that holds it: each one above it is looked up.
  std::string_view above = path;
  for (;;) {
    const std::size_t slash = above.rfind('/');
    if (slash == std::string_view::npos) return false;
    above = slash == 0 ? std::string_view("/") : above.substr(0, slash);
    auto found = index_.find(std::string(above));
    if (found != index_.end() && !granted_[found->second].file_only) return true;
    if (above == "/") return false;
  }
}

}  // namespace bravebot
