#include "supervisor/servers/kept_sign_in.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <memory>

#include "confine/digest.h"
#include "supervisor/auth/oauth_url.h"
#include "supervisor/store/token_store.h"

namespace bravebot {
namespace {

// mcp-tokens as it is now, never through a link (which FindToken refuses
// too); nothing where it is not there or cannot be looked at.
std::optional<KeptSignIn::FileIdentity> TokenFileNow(const ProfileDirectory& profile) {
  struct stat status {};
  if (::fstatat(profile.fd(), kTokenFileName, &status, AT_SYMLINK_NOFOLLOW) != 0) {
    return std::nullopt;
  }
#ifdef __APPLE__
  const struct timespec changed = status.st_ctimespec;
  const struct timespec modified = status.st_mtimespec;
#else
  const struct timespec changed = status.st_ctim;
  const struct timespec modified = status.st_mtim;
#endif
  return KeptSignIn::FileIdentity{.device = static_cast<std::uint64_t>(status.st_dev),
                                  .inode = static_cast<std::uint64_t>(status.st_ino),
                                  .size = static_cast<std::int64_t>(status.st_size),
                                  .changed_seconds = changed.tv_sec,
                                  .changed_nanoseconds = changed.tv_nsec,
                                  .modified_seconds = modified.tv_sec,
                                  .modified_nanoseconds = modified.tv_nsec};
}

}  // namespace

bool KeptSignIn::StillKept() {
  if (!kept_) return false;
  std::optional<FileIdentity> now = TokenFileNow(profile_);
  if (!now) {
    kept_ = false;
    return false;
  }
  if (now == read_) return true;
  ++reads_;
  Result<std::optional<StoredToken>> found = FindToken(profile_, alias_, digest_, origin_);
  kept_ = found && found->has_value();
  // The identity taken before the read: a file replaced meanwhile differs
  // from it, and is read at the next request.
  read_ = now;
  return kept_;
}

std::function<bool()> SignInKeptCheck(const Declaration& declaration,
                                      const ServerStartOptions& options) {
  if (options.incognito || options.profile == nullptr) return {};
  Result<OAuthUrl> service = ReadOAuthUrl(declaration.url);
  Result<ProfileDirectory> profile = options.profile->Duplicate();
  if (!service || !profile) return [] { return false; };
  auto kept = std::make_shared<KeptSignIn>(std::move(*profile), declaration.alias,
                                           ComputeDigest(declaration).hex, service->origin);
  return [kept] { return kept->StillKept(); };
}

}  // namespace bravebot
