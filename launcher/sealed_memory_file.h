// A memory file holding bytes a program of ours reads after its exec (the
// seccomp filter, an environment, bwrap's arguments): the starter's memory is
// not the program's to read. Sealed, so that what was written is what it
// reads; close-on-exec until the child puts it where the program looks.
#ifndef BRAVEBOT_LAUNCHER_SEALED_MEMORY_FILE_H_
#define BRAVEBOT_LAUNCHER_SEALED_MEMORY_FILE_H_

#include <string_view>

#include "base/result.h"
#include "base/unique_fd.h"

namespace bravebot {

// A memory file named `name` holding `bytes`, read from its start.
Result<UniqueFd> SealedMemoryFile(const char* name, std::string_view bytes);

}  // namespace bravebot

#endif  // BRAVEBOT_LAUNCHER_SEALED_MEMORY_FILE_H_
