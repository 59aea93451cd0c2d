// Whether the sign-in a service's channel opened with is still kept:
// logout, or the declaration changed or removed, forgets its tokens, and
// a session running then sends the token no more from its next request
// (HttpClient asks before each one, whichever way it is made).
//
//   channel.bearer = *co_await ServiceToken(http, declaration, options);  // once it is ok
//   channel.sign_in_kept = SignInKeptCheck(declaration, options);
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_KEPT_SIGN_IN_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_KEPT_SIGN_IN_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "confine/declaration.h"
#include "supervisor/servers/server_start_options.h"
#include "supervisor/store/profile_directory.h"

namespace bravebot {

// One entry of mcp-tokens (an alias, a digest, an origin), asked whether it
// is still stored. The file is read and parsed again only where it is
// another file than the one last read (its inode, size or times differ):
// a session asks before every request, a service can have requests sent
// without the agent (its own requests the session answers at once), and
// mcp-tokens may be MiB, so a whole read each time would be a cost the
// service chose. Every writer replaces the file whole (a new inode), and a
// hand edit changes its times.
//
// Fails closed, for good: once the entry is gone, or the file (or the
// directory) could not be read once, the answer is no from then on, and
// the token is not sent again by that channel. A session started later
// reads the file afresh.
class KeptSignIn {
 public:
  KeptSignIn(ProfileDirectory profile, std::string alias, std::string digest, std::string origin)
      : profile_(std::move(profile)),
        alias_(std::move(alias)),
        digest_(std::move(digest)),
        origin_(std::move(origin)) {}

  bool StillKept();
  // How many times mcp-tokens was read and parsed so far.
  std::size_t reads() const { return reads_; }

  // What tells one file from another, without reading it.
  struct FileIdentity {
    std::uint64_t device = 0;
    std::uint64_t inode = 0;
    std::int64_t size = 0;
    std::int64_t changed_seconds = 0;
    std::int64_t changed_nanoseconds = 0;
    std::int64_t modified_seconds = 0;
    std::int64_t modified_nanoseconds = 0;
    bool operator==(const FileIdentity&) const = default;
  };

 private:
  ProfileDirectory profile_;
  std::string alias_;
  std::string digest_;
  std::string origin_;
  std::optional<FileIdentity> read_;  // the file as last read
  bool kept_ = true;
  std::size_t reads_ = 0;
};

// A KeptSignIn of the declaration's alias, digest and origin, on a profile
// directory of its own (the same directory, its descriptor duplicated: the
// channel may outlive the session's by its last request, the DELETE that
// ends the service's session). Nothing (an empty function) where no token
// could have been kept: an incognito session, no profile directory.
std::function<bool()> SignInKeptCheck(const Declaration& declaration,
                                      const ServerStartOptions& options);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_KEPT_SIGN_IN_H_
