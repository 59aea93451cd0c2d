#include "confine/whole_directory.h"

#include "confine/paths.h"

namespace bravebot {
namespace {

bool StrictlyBeneath(const std::string& path, const std::string& directory) {
  return !path.empty() && path != directory && IsSameOrBeneath(path, directory);
}

bool InProfile(const std::string& directory, const ProfileLocation& profile) {
  return IsSameOrBeneath(directory, profile.path) ||
         IsSameOrBeneath(directory, profile.resolved_path);
}

bool HoldsProfile(const std::string& directory, const ProfileLocation& profile) {
  return StrictlyBeneath(profile.path, directory) ||
         StrictlyBeneath(profile.resolved_path, directory);
}

}  // namespace

std::string WhyNotWhole(const std::string& directory, const WholeDirectoryLimits& limits) {
  if (InProfile(directory, limits.profile)) return "it is the profile directory or lies in it";
  if (directory == limits.user_home) return "it is your home";
  if (StrictlyBeneath(limits.user_home, directory)) return "it holds your home";
  if (HoldsProfile(directory, limits.profile)) return "it holds the profile directory";
  if (directory == limits.system_temporary_root) {
    return "it is the system's temporary directory, where other programs keep their sockets";
  }
  if (StrictlyBeneath(limits.system_temporary_root, directory)) {
    return "it holds the system's temporary directory, where other programs keep their sockets";
  }
  return "";
}

bool HoldsProtectedDirectory(const std::string& directory, const WholeDirectoryLimits& limits) {
  return HoldsProfile(directory, limits.profile) || StrictlyBeneath(limits.user_home, directory) ||
         StrictlyBeneath(limits.system_temporary_root, directory);
}

}  // namespace bravebot
