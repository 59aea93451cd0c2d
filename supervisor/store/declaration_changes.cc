#include "supervisor/store/declaration_changes.h"

#include "supervisor/store/approval_store.h"
#include "supervisor/store/declaration_store.h"
#include "supervisor/store/token_store.h"

namespace bravebot {
namespace {

using Change =
    std::function<Result<std::optional<Declaration>>(DeclarationStore&, const FileLock&)>;

Result<std::optional<Declaration>> ChangeKeepingApprovalsInStep(const ProfileDirectory& profile,
                                                                const Change& change) {
  BRAVEBOT_ASSIGN_OR_RETURN(FileLock lock, profile.Lock());
  DeclarationStore declarations(profile);
  ApprovalStore approvals(profile);
  TokenStore tokens(profile);
  // An approval or token file that cannot be read stops the change before
  // mcp.json is touched, so they never disagree.
  BRAVEBOT_RETURN_IF_ERROR(approvals.Read());
  BRAVEBOT_RETURN_IF_ERROR(tokens.Read());
  Result<std::optional<Declaration>> changed = change(declarations, lock);
  if (!changed) return changed;
  BRAVEBOT_ASSIGN_OR_RETURN(DeclarationFile now, declarations.Read());
  BRAVEBOT_RETURN_IF_ERROR(
      approvals.Change(lock, [&](ApprovalFile& file) { file.KeepOnlyThoseOf(now.declarations); }));
  // A declaration changed or removed drops its tokens: its digest is no
  // declared one now.
  BRAVEBOT_RETURN_IF_ERROR(
      tokens.Change(lock, [&](TokenFile& file) { file.KeepOnlyThoseOf(now.declarations); }));
  return changed;
}

}  // namespace

Result<std::optional<Declaration>> Declare(const ProfileDirectory& profile,
                                           const Declaration& declaration) {
  return ChangeKeepingApprovalsInStep(profile, [&](DeclarationStore& store, const FileLock& held) {
    return store.Put(declaration, held);
  });
}

Status DeclareNew(const ProfileDirectory& profile, const Declaration& declaration) {
  Result<std::optional<Declaration>> declared = ChangeKeepingApprovalsInStep(
      profile,
      [&](DeclarationStore& store, const FileLock& held) -> Result<std::optional<Declaration>> {
        BRAVEBOT_ASSIGN_OR_RETURN(DeclarationFile now, store.Read());
        if (now.Find(declaration.alias) != nullptr ||
            now.FindUnusable(declaration.alias) != nullptr) {
          return Error(ErrorCode::kRefused, declaration.alias + " is declared already");
        }
        return store.Put(declaration, held);
      });
  return declared ? Status() : Status(declared.error());
}

Result<std::optional<Declaration>> Undeclare(const ProfileDirectory& profile,
                                             const std::string& alias) {
  return ChangeKeepingApprovalsInStep(profile, [&](DeclarationStore& store, const FileLock& held) {
    return store.Remove(alias, held);
  });
}

}  // namespace bravebot
