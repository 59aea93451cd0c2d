// Finding one declared server by its alias, for the commands that act on one.
#ifndef BRAVEBOT_CLI_DECLARATION_LOOKUP_H_
#define BRAVEBOT_CLI_DECLARATION_LOOKUP_H_

#include <string>
#include <string_view>

#include "base/result.h"
#include "confine/declaration.h"
#include "supervisor/store/declaration_file.h"
#include "supervisor/store/profile_directory.h"

namespace bravebot {

// What a refusal of an alias nobody declared tells a person to do.
inline constexpr std::string_view kListShowsWhatIs = "bravebot-mcp list shows what is";

// The declaration of `alias` in `file`, read from `shown_path`: kCorrupt,
// saying what is wrong and to mend it, when its entry cannot be used, and
// kNotFound, ending with `remedy`, when nothing is declared under it. The one
// lookup of every command that takes an alias; mcp-run can use it with a
// remedy of its own.
Result<Declaration> FindDeclaredAlias(const DeclarationFile& file, const std::string& shown_path,
                                      const std::string& alias,
                                      std::string_view remedy = kListShowsWhatIs);

// The same, in `profile`'s mcp.json, read now.
Result<Declaration> FindDeclaration(const ProfileDirectory& profile, const std::string& alias);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_DECLARATION_LOOKUP_H_
