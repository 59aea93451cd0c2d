// The directory a server runs in and may write. Checked when a server is
// declared and again every time it starts, since a directory can become a
// repository, or a link, after it was declared. Refused: one inside a git
// repository; one WhyNotWhole refuses (the profile directory, in it or above
// it; the home or above it; the system's temporary directory); and the
// system's own directories, where a server run by root would rewrite the
// machine.
#ifndef BRAVEBOT_CONFINE_WORKING_DIRECTORY_H_
#define BRAVEBOT_CONFINE_WORKING_DIRECTORY_H_

#include <string>

#include "base/result.h"
#include "confine/filesystem.h"
#include "confine/whole_directory.h"

namespace bravebot {

// At add: checks `directory` (absolute) and returns it with every link
// resolved, which is what the declaration keeps. Refuses (kRefused) one that
// is missing, not a directory, or one of those above.
Result<std::string> CheckWorkingDirectory(const std::string& directory,
                                          const WholeDirectoryLimits& limits,
                                          const FileSystemView& fs);

// At each start: the same checks, and `declared` (what add kept) must still be
// that very directory, reached through no link; a server that may write the
// directory above it could have swapped it for one.
Result<std::string> CheckDeclaredWorkingDirectory(const std::string& declared,
                                                  const WholeDirectoryLimits& limits,
                                                  const FileSystemView& fs);

// True for the system's own directories: "/" itself, and /etc, /usr, /bin,
// /sbin, /lib*, /boot, /dev, /proc, /sys, /run and /var with everything in
// them, but for what lies in /var/tmp.
bool IsSystemDirectory(const std::string& directory);

}  // namespace bravebot

#endif  // BRAVEBOT_CONFINE_WORKING_DIRECTORY_H_
