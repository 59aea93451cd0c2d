// The alias each server of a file to import is declared under: its name
// where that is an alias, or else one made from it, and never one that two
// different servers of the file would share.
//
//   AliasMadeFrom("git server") == "git-server"
//   ClaimAliases(entries);  // each entry's alias, or its refusal
#ifndef BRAVEBOT_CLI_IMPORT_ALIASES_H_
#define BRAVEBOT_CLI_IMPORT_ALIASES_H_

#include <string>
#include <string_view>
#include <vector>

#include "cli/import_sources.h"

namespace bravebot {

// An alias made from a name the alias rule refuses: each run of characters
// other than letters, digits, - and _ becomes one -, the - and _ it would
// start with and the - it would end with are dropped, and it is cut to 64
// characters. "" where nothing is left.
std::string AliasMadeFrom(std::string_view name);

// Gives each entry that is not refused its alias. Names that are aliases
// come first, in the entries' order, and an alias made from a name comes
// after them, so a server named git-server keeps its name against one
// named "git server". A second server under a taken alias is the same as
// the first (same_as_earlier, declared once) or is refused, saying which
// came first; so is a name no alias can be made from.
void ClaimAliases(std::vector<ImportEntry>& entries);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_IMPORT_ALIASES_H_
