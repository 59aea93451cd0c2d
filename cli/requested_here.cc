#include "cli/requested_here.h"

#include "supervisor/store/settings_file.h"

namespace bravebot {

Error NotRequestedHere(const CommandContext& context, const ProfileDirectory& profile,
                       const std::string& alias, const std::string& command) {
  const SettingsFiles settings(context.cwd, &profile);
  return Error(ErrorCode::kRefused,
               alias + " is not asked for in " + context.cwd + ": none of " +
                   settings.PathOf(Scope::kLocal) + ", " + settings.PathOf(Scope::kProject) +
                   " and " + settings.PathOf(Scope::kUser) +
                   " names it in mcp.request (a missing file names nothing). Run " + command +
                   " in the checkout whose settings ask for it, or ask for it here first with "
                   "bravebot-mcp enable " +
                   alias);
}

Status CheckRequestedHere(const CommandContext& context, const ProfileDirectory& profile,
                          const std::string& alias, const std::string& command) {
  const FilesRequesting requesting =
      SettingsFiles(context.cwd, &profile).FindFilesRequesting(alias);
  if (!requesting.scopes.empty()) return {};
  if (!requesting.unreadable.empty()) {
    const Error& first = requesting.unreadable.front().error;
    return Error(first.code(),
                 "whether " + alias +
                     " is asked for here is not known, so nothing was asked: " + first.message());
  }
  return NotRequestedHere(context, profile, alias, command);
}

}  // namespace bravebot
