// mcp-approved in the profile directory, read and changed the way mcp.json
// is: whole, atomically, under the profile directory's lock, and never
// overwritten when it cannot be read.
//
//   auto lock = profile.Lock();
//   ApprovalStore(profile).Change(*lock, [&](ApprovalFile& file) { file.Approve(weather); });
#ifndef BRAVEBOT_SUPERVISOR_STORE_APPROVAL_STORE_H_
#define BRAVEBOT_SUPERVISOR_STORE_APPROVAL_STORE_H_

#include <functional>
#include <string>

#include "base/file_lock.h"
#include "base/result.h"
#include "supervisor/store/approval_file.h"
#include "supervisor/store/profile_directory.h"

namespace bravebot {

inline constexpr char kApprovalFileName[] = "mcp-approved";

class ApprovalStore {
 public:
  explicit ApprovalStore(const ProfileDirectory& profile) : profile_(profile) {}

  std::string path() const { return profile_.PathOf(kApprovalFileName); }

  // What is approved; a missing file approves nothing.
  Result<ApprovalFile> Read() const;

  // Reads the file, lets `change` edit it and writes it back, all while
  // `held` (the profile directory's lock) is held. A missing file that the
  // change leaves empty is not created.
  Status Change(const FileLock& held, const std::function<void(ApprovalFile&)>& change);

 private:
  const ProfileDirectory& profile_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_STORE_APPROVAL_STORE_H_
