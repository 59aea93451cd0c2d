// The two directories a confined server writes: its private home,
// mcp-home/<digest> in the profile directory, kept between runs, and a fresh
// temporary directory for one run, removed when it stops.
#ifndef BRAVEBOT_SUPERVISOR_STORE_SERVER_DIRECTORIES_H_
#define BRAVEBOT_SUPERVISOR_STORE_SERVER_DIRECTORIES_H_

#include <string>

#include "base/result.h"
#include "supervisor/store/profile_directory.h"

namespace bravebot {

// Makes (0700) or finds the home `digest_hex` names, refusing one that is a
// link or that another user owns. Returns its path (the profile directory's,
// resolved).
Result<std::string> PrepareServerHome(const ProfileDirectory& profile,
                                      const std::string& digest_hex);

// A fresh 0700 directory under `system_temporary_root`, its path with every
// link resolved.
Result<std::string> MakeRunDirectory(const std::string& system_temporary_root);

// Removes a run directory and everything in it, never following a link.
void RemoveRunDirectory(const std::string& path);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_STORE_SERVER_DIRECTORIES_H_
