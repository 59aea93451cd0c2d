#include "supervisor/servers/kept_sign_in.h"

#include <memory>
#include <optional>
#include <string>

#include "confine/digest.h"
#include "supervisor/auth/oauth_url.h"
#include "supervisor/store/token_store.h"

namespace bravebot {

std::function<bool()> SignInKeptCheck(const Declaration& declaration,
                                      const ServerStartOptions& options) {
  if (options.incognito || options.profile == nullptr) return {};
  Result<OAuthUrl> service = ReadOAuthUrl(declaration.url);
  // A profile directory of its own: the channel may outlive the session's
  // by its last request (the DELETE that ends the service's session).
  Result<ProfileDirectory> profile = ProfileDirectory::Open(options.profile->path(), Create::kNo);
  if (!service || !profile) return [] { return false; };
  auto shared = std::make_shared<ProfileDirectory>(std::move(*profile));
  return [profile = std::move(shared), alias = declaration.alias,
          digest = ComputeDigest(declaration).hex, origin = service->origin] {
    Result<std::optional<StoredToken>> found = FindToken(*profile, alias, digest, origin);
    return found && found->has_value();
  };
}

}  // namespace bravebot
