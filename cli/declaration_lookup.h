// Finding one declared server by its alias, for the commands that act on one.
#ifndef BRAVEBOT_CLI_DECLARATION_LOOKUP_H_
#define BRAVEBOT_CLI_DECLARATION_LOOKUP_H_

#include <string>

#include "base/result.h"
#include "confine/declaration.h"
#include "supervisor/store/profile_directory.h"

namespace bravebot {

// The declaration of `alias` in `profile`'s mcp.json: kNotFound when nothing
// is declared there, kCorrupt when its entry cannot be used.
Result<Declaration> FindDeclaration(const ProfileDirectory& profile, const std::string& alias);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_DECLARATION_LOOKUP_H_
