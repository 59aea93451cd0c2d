// Whether a directory lies inside a git repository. A server may not be given
// one to write: git runs the commands a repository's configuration and hooks
// name, so a server that wrote them would run code unconfined the next time
// you ran git there.
#ifndef BRAVEBOT_CONFINE_REPOSITORY_H_
#define BRAVEBOT_CONFINE_REPOSITORY_H_

#include <optional>
#include <string>

#include "confine/filesystem.h"

namespace bravebot {

// The first of `directory` and the directories above it (normalized absolute
// paths) that holds a `.git` directory, holds a `.git` file starting with
// "gitdir:", or is itself a bare repository (HEAD, objects/ and refs/); nothing
// when none is.
std::optional<std::string> FindEnclosingRepository(const std::string& directory,
                                                   const FileSystemView& fs);

}  // namespace bravebot

#endif  // BRAVEBOT_CONFINE_REPOSITORY_H_
