#include "supervisor/store/token_store.h"

#include <algorithm>

#include "base/files.h"
#include "confine/digest.h"
#include "supervisor/store/declaration_store.h"
#include "supervisor/store/file_bounds.h"

namespace bravebot {

Result<TokenFile> TokenStore::Read() const {
  Result<std::string> text = ReadFileAt(profile_.fd(), kTokenFileName, path(), kTokenFileBound);
  if (!text) {
    if (text.error().code() == ErrorCode::kNotFound) return TokenFile{};
    return text.error();
  }
  return ParseTokenFile(*text, path());
}

Status TokenStore::Change(const FileLock& /*held*/, const std::function<void(TokenFile&)>& change) {
  RemoveAbandonedTemporaries(profile_.fd(), kTokenFileName);
  Result<std::string> text = ReadFileAt(profile_.fd(), kTokenFileName, path(), kTokenFileBound);
  const bool existed = text.ok();
  if (!text && text.error().code() != ErrorCode::kNotFound) return text.error();
  BRAVEBOT_ASSIGN_OR_RETURN(TokenFile file, existed ? ParseTokenFile(*text, path()) : TokenFile{});
  change(file);
  if (!existed && file.tokens.empty()) return {};
  return ReplaceFileAt(profile_.fd(), kTokenFileName, SerializeTokenFile(file), 0600, path());
}

Result<std::optional<StoredToken>> FindToken(const ProfileDirectory& profile,
                                             std::string_view alias, std::string_view digest,
                                             std::string_view origin) {
  BRAVEBOT_ASSIGN_OR_RETURN(TokenFile file, TokenStore(profile).Read());
  const StoredToken* token = file.Find(alias, digest, origin);
  return token == nullptr ? std::optional<StoredToken>() : std::optional<StoredToken>(*token);
}

Result<bool> PutTokenWhileDeclared(const ProfileDirectory& profile, StoredToken token) {
  BRAVEBOT_ASSIGN_OR_RETURN(FileLock lock, profile.Lock());
  BRAVEBOT_ASSIGN_OR_RETURN(DeclarationFile declarations, DeclarationStore(profile).Read());
  const bool declared = std::any_of(
      declarations.declarations.begin(), declarations.declarations.end(),
      [&](const Declaration& declaration) {
        return declaration.alias == token.alias && ComputeDigest(declaration).hex == token.digest;
      });
  if (!declared) return false;
  BRAVEBOT_RETURN_IF_ERROR(
      TokenStore(profile).Change(lock, [&](TokenFile& file) { file.Put(std::move(token)); }));
  return true;
}

Result<bool> RenewToken(const ProfileDirectory& profile, const StoredToken& old,
                        StoredToken renewed) {
  BRAVEBOT_ASSIGN_OR_RETURN(FileLock lock, profile.Lock());
  bool renewing = false;
  BRAVEBOT_RETURN_IF_ERROR(TokenStore(profile).Change(lock, [&](TokenFile& file) {
    const StoredToken* stored = file.Find(old.alias, old.digest, old.origin);
    renewing = stored != nullptr && stored->access_token == old.access_token &&
               stored->refresh_token == old.refresh_token;
    if (renewing) file.Put(std::move(renewed));
  }));
  return renewing;
}

Result<size_t> ForgetTokens(const ProfileDirectory& profile, std::string_view alias) {
  BRAVEBOT_ASSIGN_OR_RETURN(FileLock lock, profile.Lock());
  size_t forgotten = 0;
  BRAVEBOT_RETURN_IF_ERROR(
      TokenStore(profile).Change(lock, [&](TokenFile& file) { forgotten = file.Forget(alias); }));
  return forgotten;
}

}  // namespace bravebot
