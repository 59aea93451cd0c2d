// Turns a declaration as typed into the one `add` records: the program and
// the directory made absolute, the directory checked, PATH named for a program
// found through it, and the files the server may read found among its values
// and arguments.
#ifndef BRAVEBOT_SUPERVISOR_POLICY_NEW_DECLARATION_H_
#define BRAVEBOT_SUPERVISOR_POLICY_NEW_DECLARATION_H_

#include <string>

#include "base/result.h"
#include "confine/declaration.h"
#include "confine/filesystem.h"

namespace bravebot {

struct DeclarationSurroundings {
  std::string cwd;                    // where add runs, absolute
  std::string profile_path;           // the profile directory as named
  std::string profile_resolved_path;  // and with links resolved
  const FileSystemView* fs = nullptr;
  std::string user_home;  // "" when there is none
};

// Completes `typed` (what ParseAddArguments read). Refuses (kRefused) a
// directory CheckWorkingDirectory refuses: missing, not a directory, inside a
// git repository, the profile directory, inside it or above it, the home or
// above it, the system's temporary directory or one of its own directories.
Result<Declaration> CompleteDeclaration(Declaration typed, const DeclarationSurroundings& around);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_POLICY_NEW_DECLARATION_H_
