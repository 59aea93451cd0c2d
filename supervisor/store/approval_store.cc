#include "supervisor/store/approval_store.h"

#include "base/files.h"
#include "supervisor/store/file_bounds.h"

namespace bravebot {

Result<ApprovalFile> ApprovalStore::Read() const {
  Result<std::string> text =
      ReadFileAt(profile_.fd(), kApprovalFileName, path(), kApprovalFileBound);
  if (!text) {
    if (text.error().code() == ErrorCode::kNotFound) return ApprovalFile{};
    return text.error();
  }
  return ParseApprovalFile(*text, path());
}

Status ApprovalStore::Change(const FileLock& /*held*/,
                             const std::function<void(ApprovalFile&)>& change) {
  RemoveAbandonedTemporaries(profile_.fd(), kApprovalFileName);
  Result<std::string> text =
      ReadFileAt(profile_.fd(), kApprovalFileName, path(), kApprovalFileBound);
  const bool existed = text.ok();
  if (!text && text.error().code() != ErrorCode::kNotFound) return text.error();
  BRAVEBOT_ASSIGN_OR_RETURN(ApprovalFile file,
                            existed ? ParseApprovalFile(*text, path()) : ApprovalFile{});
  change(file);
  if (!existed && file.servers.empty() && file.tools.empty()) return {};
  return ReplaceFileAt(profile_.fd(), kApprovalFileName, SerializeApprovalFile(file), 0600, path());
}

}  // namespace bravebot
