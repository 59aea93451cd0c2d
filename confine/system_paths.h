// The machine's own system directories every server is given: programs and
// libraries to read and run, /etc to read entry by entry without its secrets,
// /proc and /sys to read, and the few devices a program expects.
#ifndef BRAVEBOT_CONFINE_SYSTEM_PATHS_H_
#define BRAVEBOT_CONFINE_SYSTEM_PATHS_H_

#include "confine/filesystem.h"
#include "confine/reach_paths.h"

namespace bravebot {

void GrantSystemPaths(const FileSystemView& fs, ReachPaths& paths);

}  // namespace bravebot

#endif  // BRAVEBOT_CONFINE_SYSTEM_PATHS_H_
