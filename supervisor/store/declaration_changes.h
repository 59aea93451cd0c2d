// Changing what is declared, and with it what is approved and the tokens
// signing in stored: an approval or a token that no declaration resolves to
// any more goes, in the same hold of the profile directory's lock, so no
// reader ever sees a declaration replaced and its old approval or tokens
// still standing.
#ifndef BRAVEBOT_SUPERVISOR_STORE_DECLARATION_CHANGES_H_
#define BRAVEBOT_SUPERVISOR_STORE_DECLARATION_CHANGES_H_

#include <optional>
#include <string>

#include "base/result.h"
#include "confine/declaration.h"
#include "supervisor/store/profile_directory.h"

namespace bravebot {

// Declares `declaration` under its alias, replacing what was there, and drops
// the approvals nothing resolves to now. Returns the declaration replaced.
Result<std::optional<Declaration>> Declare(const ProfileDirectory& profile,
                                           const Declaration& declaration);

// Declares `declaration` where its alias is not declared yet, usable or
// not; kRefused, changing nothing, where it is.
Status DeclareNew(const ProfileDirectory& profile, const Declaration& declaration);

// Removes the declaration of `alias` and the approvals nothing resolves to
// now; an approval another declaration still resolves to is kept.
Result<std::optional<Declaration>> Undeclare(const ProfileDirectory& profile,
                                             const std::string& alias);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_STORE_DECLARATION_CHANGES_H_
