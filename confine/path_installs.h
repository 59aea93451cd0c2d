// The installations a server's programs come from: the directories of the
// PATH it is given, the directory of its program (as named and after links),
// the interpreter its #! line names, and the installation around each bin
// directory, such as the node one nvm puts deep in a home directory. Every
// path is resolved (confine/grant_path.h) before the rules apply to it, and
// what is granted is the resolved path.
#ifndef BRAVEBOT_CONFINE_PATH_INSTALLS_H_
#define BRAVEBOT_CONFINE_PATH_INSTALLS_H_

#include <optional>
#include <string>

#include "base/result.h"
#include "confine/filesystem.h"
#include "confine/grant_path.h"
#include "confine/reach_paths.h"

namespace bravebot {

// Where `program` runs from: itself when it is a path, else the first
// directory of `path_value` (the server's PATH) holding an executable file of
// that name. Refuses with the message a person needs when there is none.
Result<std::string> FindProgram(const std::string& program,
                                const std::optional<std::string>& path_value,
                                const FileSystemView& fs);

// Grants read and execute on each directory of the server's PATH, and the
// installation around each, refusing (in `paths`' not-granted list) the ones a
// rule leaves out: a relative or empty entry, one reached through a link a
// server may have planted, one WhyNotWhole refuses.
void GrantPathEntries(const std::string& path_value, const GrantRules& rules, ReachPaths& paths);

// Grants the directory `program_path` is in, as named and after links, and the
// installation around it; where that directory is one no server is given
// whole, only the program file. Then the same for the interpreter its #! line
// names, `env NAME` found through `path_value`: unless the program lies where
// a server may write, since its #! line is then the server's to choose, and
// an interpreter the rest of the reach does not give is not added. Refuses a
// program reached through a link a server may have planted.
Status GrantProgram(const std::string& program_path, const std::optional<std::string>& path_value,
                    const GrantRules& rules, ReachPaths& paths);

}  // namespace bravebot

#endif  // BRAVEBOT_CONFINE_PATH_INSTALLS_H_
