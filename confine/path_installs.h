// The installations a server's programs come from: the directories of the
// PATH it is given, the directory of its program (as named and after links),
// the interpreter its #! line names, and the installation around each bin
// directory, such as the node one nvm puts deep in a home directory.
#ifndef BRAVEBOT_CONFINE_PATH_INSTALLS_H_
#define BRAVEBOT_CONFINE_PATH_INSTALLS_H_

#include <optional>
#include <string>

#include "base/result.h"
#include "confine/filesystem.h"
#include "confine/reach_paths.h"
#include "confine/working_directory.h"

namespace bravebot {

struct InstallRules {
  const FileSystemView* fs = nullptr;
  std::string user_home;  // "" when there is none
  ProfileLocation profile;
  std::string system_temporary_root;  // "/tmp"
};

// Where `program` runs from: itself when it is a path, else the first
// directory of `path_value` (the server's PATH) holding an executable file of
// that name. Refuses with the message a person needs when there is none.
Result<std::string> FindProgram(const std::string& program,
                                const std::optional<std::string>& path_value,
                                const FileSystemView& fs);

// Grants read and execute on each directory of the server's PATH, and the
// installation around each, refusing (in `paths`' not-granted list) the ones a
// rule leaves out: a relative or empty entry, the home, a directory above it,
// the profile directory or one in it, the system temporary directory.
void GrantPathEntries(const std::string& path_value, const InstallRules& rules, ReachPaths& paths);

// Grants the directory `program_path` is in, as named and after links, and the
// installation around it; where that directory is one no server is given
// whole, only the program file. Then the same for the interpreter its #! line
// names, `env NAME` found through `path_value`.
void GrantProgram(const std::string& program_path, const std::optional<std::string>& path_value,
                  const InstallRules& rules, ReachPaths& paths);

}  // namespace bravebot

#endif  // BRAVEBOT_CONFINE_PATH_INSTALLS_H_
