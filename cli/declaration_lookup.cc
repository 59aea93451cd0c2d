#include "cli/declaration_lookup.h"

#include "supervisor/store/declaration_store.h"

namespace bravebot {

Result<Declaration> FindDeclaration(const ProfileDirectory& profile, const std::string& alias) {
  DeclarationStore store(profile);
  Result<DeclarationFile> file = store.Read();
  if (!file) return file.error();
  if (const UnusableEntry* unusable = file->FindUnusable(alias)) {
    return Error(ErrorCode::kCorrupt, alias + " in " + store.path() + " cannot be used: " +
                                          unusable->problem + ". Mend it by hand, or add it again");
  }
  const Declaration* declaration = file->Find(alias);
  if (declaration == nullptr) {
    return Error(ErrorCode::kNotFound, alias + " is not declared in " + store.path() +
                                           ": bravebot-mcp list shows what is");
  }
  return *declaration;
}

}  // namespace bravebot
