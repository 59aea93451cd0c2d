#include "cli/profile_access.h"

#include "confine/paths.h"

namespace bravebot {

Result<std::optional<ProfileDirectory>> OpenProfileToRead(const CommandContext& context) {
  std::optional<std::string> location = context.ProfileLocation();
  if (!location) return std::optional<ProfileDirectory>();
  Result<ProfileDirectory> profile = ProfileDirectory::Open(*location, Create::kNo);
  if (!profile) {
    if (profile.error().code() == ErrorCode::kNotFound) return std::optional<ProfileDirectory>();
    return profile.error();
  }
  return std::optional<ProfileDirectory>(std::move(*profile));
}

std::string ResolvedProfileLocation(const std::string& location, const FileSystemView& fs) {
  if (std::optional<std::string> resolved = fs.ResolvedPath(location)) return *resolved;
  if (std::optional<std::string> parent = fs.ResolvedPath(ParentPath(location))) {
    return JoinPath(*parent, location.substr(location.rfind('/') + 1));
  }
  return location;
}

Result<ProfileDirectory> OpenProfileToWrite(const CommandContext& context) {
  std::optional<std::string> location = context.ProfileLocation();
  if (!location) return Error(ErrorCode::kRefused, NoProfileDirectoryMessage());
  return ProfileDirectory::Open(*location, Create::kYes);
}

}  // namespace bravebot
