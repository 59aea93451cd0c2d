// The machine's own system directories every server is given: programs and
// libraries to read and run, /etc to read entry by entry without its secrets,
// /proc and /sys to read, and the few devices a program expects. Each is
// granted where its links lead, and around the profile directory or the
// person's home where one lies inside it (BRAVEBOT_HOME=/opt/bb leaves
// /opt/bb out of /opt).
#ifndef BRAVEBOT_CONFINE_SYSTEM_PATHS_H_
#define BRAVEBOT_CONFINE_SYSTEM_PATHS_H_

#include <string_view>

#include "confine/grant_path.h"
#include "confine/reach_paths.h"

namespace bravebot {

void GrantSystemPaths(const GrantRules& rules, ReachPaths& paths);

// True for the reason of a path GrantSystemPaths gave: what every server
// has, so a summary of what one server may reach leaves it aside.
bool IsSystemPathReason(std::string_view reason);

// True for a path in one of the system's own trees (/usr, /bin, /sbin,
// /lib*, /opt, /nix/store, /etc, /proc, /sys, /dev). A system reason alone
// does not make a path the system's: a link in /etc may lead anywhere.
bool IsInSystemTree(std::string_view path);

}  // namespace bravebot

#endif  // BRAVEBOT_CONFINE_SYSTEM_PATHS_H_
