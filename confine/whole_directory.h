// The one rule for "may this directory be granted whole?", applied to every
// grant of a directory: PATH entries, the installation around a bin
// directory, the program's directory, the system directories and --dir. A
// directory is never granted whole when it is the profile directory, lies in
// it or holds it (a server that reads mcp.json reads every stored key, and one
// that writes mcp-approved approves itself), when it is the person's home or
// holds it, or when it is the system's temporary directory or holds it.
//
//   WholeDirectoryLimits limits{"/home/u", {"/home/u/.bravebot", "/home/u/.bravebot"}, "/tmp"};
//   if (std::string why = WhyNotWhole("/opt", limits); !why.empty()) ...
#ifndef BRAVEBOT_CONFINE_WHOLE_DIRECTORY_H_
#define BRAVEBOT_CONFINE_WHOLE_DIRECTORY_H_

#include <string>
#include <vector>

#include "confine/filesystem.h"

namespace bravebot {

// Where run directories are made, and what no server is given whole.
inline constexpr char kSystemTemporaryRoot[] = "/tmp";

// The profile directory as named and with its links resolved.
struct ProfileLocation {
  std::string path;
  std::string resolved_path;
};

struct WholeDirectoryLimits {
  std::string user_home;  // "" when there is none
  ProfileLocation profile;
  std::string system_temporary_root;  // "/tmp"
  // The home with its links resolved ("" when it is the same, or unknown):
  // /home may be a link to another disk.
  std::string user_home_resolved;

  // The home as named and as resolved, each once.
  std::vector<std::string> Homes() const;
};

// The limits for a person whose HOME is `user_home` (normalized here, and
// resolved on `fs`).
WholeDirectoryLimits LimitsFor(const std::string& user_home, const ProfileLocation& profile,
                               const std::string& system_temporary_root, const FileSystemView& fs);

// Why `directory` (absolute and normalized, links resolved) is never granted
// whole, ending a sentence such as "not given, since ...": "it holds the
// profile directory". Empty when it may be granted whole.
std::string WhyNotWhole(const std::string& directory, const WholeDirectoryLimits& limits);

// True when something WhyNotWhole protects lies strictly beneath `directory`,
// so that the rest of it may still be granted around that one thing; false
// for a directory protected itself (the home, which holds the profile
// directory), whose rest is never granted.
bool HoldsProtectedDirectory(const std::string& directory, const WholeDirectoryLimits& limits);

// True for a path in the person's home, the profile directory or the
// system's temporary directory: where a link met while a system directory
// is given around what it holds is not followed.
bool LiesInPrivatePlace(const std::string& path, const WholeDirectoryLimits& limits);

}  // namespace bravebot

#endif  // BRAVEBOT_CONFINE_WHOLE_DIRECTORY_H_
