// The directory a server runs in and may write: never inside a git
// repository, and never the profile directory, inside it or above it. Checked
// when a server is declared and again every time it starts, since a directory
// can become a repository, or a link, after it was declared.
#ifndef BRAVEBOT_CONFINE_WORKING_DIRECTORY_H_
#define BRAVEBOT_CONFINE_WORKING_DIRECTORY_H_

#include <string>

#include "base/result.h"
#include "confine/filesystem.h"

namespace bravebot {

// The profile directory as named and with its links resolved.
struct ProfileLocation {
  std::string path;
  std::string resolved_path;
};

// Checks `directory` (absolute) and returns it with every link resolved.
// Refuses (kRefused) one that is missing, not a directory, inside a git
// repository, or holds or lies in the profile directory.
Result<std::string> CheckWorkingDirectory(const std::string& directory,
                                          const ProfileLocation& profile, const FileSystemView& fs);

}  // namespace bravebot

#endif  // BRAVEBOT_CONFINE_WORKING_DIRECTORY_H_
