#include "cli/declaration_lookup.h"

#include "supervisor/store/declaration_store.h"

namespace bravebot {

Result<Declaration> FindDeclaredAlias(const DeclarationFile& file, const std::string& shown_path,
                                      const std::string& alias, std::string_view remedy) {
  if (const UnusableEntry* unusable = file.FindUnusable(alias)) {
    return Error(ErrorCode::kCorrupt, alias + " in " + shown_path + " cannot be used: " +
                                          unusable->problem + ". Mend it by hand, or add it again");
  }
  const Declaration* declaration = file.Find(alias);
  if (declaration == nullptr) {
    return Error(ErrorCode::kNotFound,
                 alias + " is not declared in " + shown_path + ": " + std::string(remedy));
  }
  return *declaration;
}

Result<Declaration> FindDeclaration(const ProfileDirectory& profile, const std::string& alias) {
  DeclarationStore store(profile);
  BRAVEBOT_ASSIGN_OR_RETURN(DeclarationFile file, store.Read());
  return FindDeclaredAlias(file, store.path(), alias);
}

}  // namespace bravebot
