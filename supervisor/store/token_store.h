// mcp-tokens in the profile directory, read and changed the way mcp-approved
// is: whole, atomically (a new file renamed over the old, mode 0600 whatever
// the umask), under the profile directory's lock, and never overwritten when
// it cannot be read: it is refused, and left for the person to mend or move.
//
//   BRAVEBOT_ASSIGN_OR_RETURN(std::optional<StoredToken> token,
//                             FindToken(profile, alias, ComputeDigest(declaration).hex, origin));
//   BRAVEBOT_ASSIGN_OR_RETURN(bool kept, PutTokenWhileDeclared(profile, signed_in));
//   BRAVEBOT_RETURN_IF_ERROR(ForgetTokens(profile, alias));  // logout
#ifndef BRAVEBOT_SUPERVISOR_STORE_TOKEN_STORE_H_
#define BRAVEBOT_SUPERVISOR_STORE_TOKEN_STORE_H_

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "base/file_lock.h"
#include "base/result.h"
#include "supervisor/store/profile_directory.h"
#include "supervisor/store/token_file.h"

namespace bravebot {

inline constexpr char kTokenFileName[] = "mcp-tokens";

class TokenStore {
 public:
  explicit TokenStore(const ProfileDirectory& profile) : profile_(profile) {}

  std::string path() const { return profile_.PathOf(kTokenFileName); }

  // What is stored; a missing file stores nothing.
  Result<TokenFile> Read() const;

  // Reads the file, lets `change` edit it and writes it back, all while
  // `held` (the profile directory's lock) is held. A missing file that the
  // change leaves empty is not created.
  Status Change(const FileLock& held, const std::function<void(TokenFile&)>& change);

 private:
  const ProfileDirectory& profile_;
};

// The token of the declaration `alias` with `digest`, for `origin`, if one
// is stored. Reads without the lock: every writer replaces the file whole.
Result<std::optional<StoredToken>> FindToken(const ProfileDirectory& profile,
                                             std::string_view alias, std::string_view digest,
                                             std::string_view origin);

// Stores `token`, taking the lock, where a declaration of its alias and
// digest is in mcp.json as the lock is held: a sign-in that took minutes
// keeps nothing for a declaration changed or removed meanwhile. False
// where there is none now.
Result<bool> PutTokenWhileDeclared(const ProfileDirectory& profile, StoredToken token);

// Puts `renewed` in place of `old`, taking the lock, where the entry stored
// is still `old`'s, with the same access and refresh tokens: not where a
// logout, a change of the declaration, a login or another refresh came
// first. False then, and `renewed` is not to be used.
Result<bool> RenewToken(const ProfileDirectory& profile, const StoredToken& old,
                        StoredToken renewed);

// Forgets every token of `alias`, whatever its digest, taking the lock;
// returns how many.
Result<size_t> ForgetTokens(const ProfileDirectory& profile, std::string_view alias);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_STORE_TOKEN_STORE_H_
