// The lock a refresh holds from reading its entry of mcp-tokens again until
// the new tokens are stored, across the request to the token endpoint: two
// starts of a service then never send the same refresh token, which a
// server may take as stolen and revoke the grant for (RFC 9700 section
// 4.14.2).
//
// One lock an entry (alias, digest, origin), each a file of its own in
// mcp-tokens.locks/ in the profile directory: a service whose token
// endpoint stalls holds up the refreshes of its own entry alone, never
// another service's start. Not the profile's lock, which no command should
// wait a request's 30 s for. The file is removed as the lock is let go; one
// that was removed while a start waited on it is not taken for held.
//
//   BRAVEBOT_ASSIGN_OR_RETURN(std::optional<TokenRefreshLock> lock,
//                             TryLockTokenRefresh(profile, entry));
//   if (!lock) ...  // another start refreshes this entry now: wait, try again
#ifndef BRAVEBOT_SUPERVISOR_STORE_TOKEN_REFRESH_LOCK_H_
#define BRAVEBOT_SUPERVISOR_STORE_TOKEN_REFRESH_LOCK_H_

#include <optional>
#include <string>

#include "base/file_lock.h"
#include "base/result.h"
#include "base/unique_fd.h"
#include "supervisor/store/profile_directory.h"
#include "supervisor/store/token_file.h"

namespace bravebot {

inline constexpr char kTokenRefreshLocksName[] = "mcp-tokens.locks";

// Where the lock of `entry` is, to name it in words.
std::string TokenRefreshLockPath(const ProfileDirectory& profile, const StoredToken& entry);

class TokenRefreshLock {
 public:
  TokenRefreshLock(TokenRefreshLock&&) = default;
  TokenRefreshLock& operator=(TokenRefreshLock&&) = default;
  ~TokenRefreshLock();  // removes its file, then lets the lock go

 private:
  friend Result<std::optional<TokenRefreshLock>> TryLockTokenRefresh(const ProfileDirectory&,
                                                                     const StoredToken&);
  TokenRefreshLock(UniqueFd directory, std::string name, FileLock lock)
      : directory_(std::move(directory)), name_(std::move(name)), lock_(std::move(lock)) {}

  UniqueFd directory_;
  std::string name_;
  std::optional<FileLock> lock_;
};

// The refresh lock of `entry`, without waiting: nothing where another
// start holds it now, for a caller that waits its own way (on its event
// loop, for a bounded time). mcp-tokens.locks is made 0700 and each lock
// file 0600; where either is a link, refused, and nothing followed.
Result<std::optional<TokenRefreshLock>> TryLockTokenRefresh(const ProfileDirectory& profile,
                                                            const StoredToken& entry);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_STORE_TOKEN_REFRESH_LOCK_H_
