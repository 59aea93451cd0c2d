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

// Where other programs keep their sockets, besides the system's temporary
// directory: given whole, one would hold every socket there
// (confine/socket_places.h).
constexpr const char* kSocketPlaces[] = {"/run", "/var/run", "/dev/shm", "/var/lib"};

}  // namespace

std::string WhyNotWhole(const std::string& directory, const WholeDirectoryLimits& limits) {
  if (InProfile(directory, limits.profile)) return "it is the profile directory or lies in it";
  for (const std::string& home : limits.Homes()) {
    if (directory == home) return "it is your home";
  }
  for (const std::string& home : limits.Homes()) {
    if (StrictlyBeneath(home, directory)) return "it holds your home";
  }
  if (HoldsProfile(directory, limits.profile)) return "it holds the profile directory";
  if (directory == limits.system_temporary_root) {
    return "it is the system's temporary directory, where other programs keep their sockets";
  }
  if (StrictlyBeneath(limits.system_temporary_root, directory)) {
    return "it holds the system's temporary directory, where other programs keep their sockets";
  }
  for (const std::string place : kSocketPlaces) {
    if (directory == place) return "it is " + place + ", where other programs keep their sockets";
    if (StrictlyBeneath(place, directory)) {
      return "it holds " + place + ", where other programs keep their sockets";
    }
  }
  return "";
}

bool HoldsProtectedDirectory(const std::string& directory, const WholeDirectoryLimits& limits) {
  // A directory protected itself is never granted around what it holds: the
  // home holds the profile directory, and the rest of it is no server's
  // either (a home under /opt would otherwise be given, entry by entry).
  if (InProfile(directory, limits.profile) || directory == limits.system_temporary_root) {
    return false;
  }
  for (const std::string& home : limits.Homes()) {
    if (directory == home) return false;
  }
  for (const std::string place : kSocketPlaces) {
    if (directory == place) return false;
  }
  for (const std::string& home : limits.Homes()) {
    if (StrictlyBeneath(home, directory)) return true;
  }
  for (const std::string place : kSocketPlaces) {
    if (StrictlyBeneath(place, directory)) return true;
  }
  return HoldsProfile(directory, limits.profile) ||
         StrictlyBeneath(limits.system_temporary_root, directory);
}

bool LiesInPrivatePlace(const std::string& path, const WholeDirectoryLimits& limits) {
  if (InProfile(path, limits.profile) || IsSameOrBeneath(path, limits.system_temporary_root)) {
    return true;
  }
  for (const std::string& home : limits.Homes()) {
    // A home of "/" (a daemon's) would hold every path.
    if (home != "/" && IsSameOrBeneath(path, home)) return true;
  }
  return false;
}

std::vector<std::string> WholeDirectoryLimits::Homes() const {
  std::vector<std::string> homes;
  if (!user_home.empty()) homes.push_back(user_home);
  if (!user_home_resolved.empty() && user_home_resolved != user_home) {
    homes.push_back(user_home_resolved);
  }
  return homes;
}

WholeDirectoryLimits LimitsFor(const std::string& user_home, const ProfileLocation& profile,
                               const std::string& system_temporary_root, const FileSystemView& fs) {
  WholeDirectoryLimits limits{"", profile, system_temporary_root, ""};
  if (user_home.empty()) return limits;
  limits.user_home = AbsolutePath(user_home, "/");
  limits.user_home_resolved = fs.ResolvedPath(limits.user_home).value_or("");
  return limits;
}

}  // namespace bravebot
