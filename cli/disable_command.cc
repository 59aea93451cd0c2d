// bravebot-mcp disable: takes a server out of each settings file that asks
// for it (with -s, out of that one). Its declaration and approval stay.
#include <ostream>

#include "cli/command.h"
#include "cli/profile_access.h"
#include "cli/simple_options.h"
#include "supervisor/store/settings_file.h"

namespace bravebot {

namespace {

SimpleCommandSpec DisableOptions() {
  SimpleCommandSpec spec{"disable",
                         "Takes a server out of mcp.request of each settings file here that asks "
                         "for it, or of the one -s names. Its declaration and approval stay, so "
                         "enable puts it back without asking.",
                         /*takes_alias=*/true,
                         /*takes_json=*/false,
                         {}};
  spec.takes_scope = true;
  return spec;
}

int RunDisable(const SimpleOptions& options, CommandContext& context) {
  Result<std::optional<ProfileDirectory>> profile = OpenProfileToRead(context);
  if (!profile) return Report(context, "disable", profile.error());
  const SettingsFiles settings(context.cwd, *profile ? &**profile : nullptr);

  std::vector<Scope> scopes;
  if (options.scope) {
    scopes = {*options.scope};
  } else {
    FilesRequesting requesting = settings.FindFilesRequesting(options.alias);
    if (!requesting.unreadable.empty()) {
      return Report(context, "disable", requesting.unreadable.front().error);
    }
    scopes = requesting.scopes;
  }
  bool removed_any = false;
  for (Scope scope : scopes) {
    Result<RequestChange> change = settings.RemoveRequest(scope, options.alias);
    if (!change) return Report(context, "disable", change.error());
    if (*change == RequestChange::kRemoved) {
      context.out << settings.PathOf(scope) << " no longer asks for " << options.alias << "\n";
      removed_any = true;
    }
  }
  if (!removed_any && options.scope) {
    context.out << settings.PathOf(*options.scope) << " does not ask for " << options.alias
                << ": nothing changed\n";
  } else if (!removed_any) {
    context.out << "no settings file here asks for " << options.alias << ": nothing changed\n";
  }
  return kExitOk;
}

}  // namespace

const CommandSpec kDisableCommand = {"disable",
                                     "take a server out of the settings files that ask for it",
                                     "disabled", DisableOptions, RunDisable};

}  // namespace bravebot
