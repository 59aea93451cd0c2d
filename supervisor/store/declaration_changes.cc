#include "supervisor/store/declaration_changes.h"

#include "supervisor/store/approval_store.h"
#include "supervisor/store/declaration_store.h"

namespace bravebot {
namespace {

using Change =
    std::function<Result<std::optional<Declaration>>(DeclarationStore&, const FileLock&)>;

Result<std::optional<Declaration>> ChangeKeepingApprovalsInStep(const ProfileDirectory& profile,
                                                                const Change& change) {
  Result<FileLock> lock = profile.Lock();
  if (!lock) return lock.error();
  DeclarationStore declarations(profile);
  ApprovalStore approvals(profile);
  // An approval file that cannot be read stops the change before mcp.json is
  // touched, so the two never disagree.
  if (Result<ApprovalFile> readable = approvals.Read(); !readable) return readable.error();
  Result<std::optional<Declaration>> changed = change(declarations, *lock);
  if (!changed) return changed;
  Result<DeclarationFile> now = declarations.Read();
  if (!now) return now.error();
  Status kept =
      approvals.Change(*lock, [&](ApprovalFile& file) { file.KeepOnlyThoseOf(now->declarations); });
  if (!kept) return kept.error();
  return changed;
}

}  // namespace

Result<std::optional<Declaration>> Declare(const ProfileDirectory& profile,
                                           const Declaration& declaration) {
  return ChangeKeepingApprovalsInStep(profile, [&](DeclarationStore& store, const FileLock& held) {
    return store.Put(declaration, held);
  });
}

Result<std::optional<Declaration>> Undeclare(const ProfileDirectory& profile,
                                             const std::string& alias) {
  return ChangeKeepingApprovalsInStep(profile, [&](DeclarationStore& store, const FileLock& held) {
    return store.Remove(alias, held);
  });
}

}  // namespace bravebot
