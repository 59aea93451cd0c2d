// bravebot-mcp remove: takes a declaration out of mcp.json.
#include <ostream>

#include "cli/command.h"
#include "cli/profile_access.h"
#include "cli/settings_writers_note.h"
#include "cli/simple_options.h"
#include "confine/paths.h"
#include "supervisor/store/declaration_changes.h"
#include "supervisor/store/declaration_store.h"

namespace bravebot {

namespace {

SimpleCommandSpec RemoveOptions() {
  return {"remove",
          "Removes the declaration of an MCP server.",
          /*takes_alias=*/true,
          /*takes_json=*/false,
          {}};
}

int RunRemove(const SimpleOptions& options, CommandContext& context) {
  std::optional<std::string> location = context.ProfileLocation();
  if (!location) {
    return Report(context, "remove", Error(ErrorCode::kRefused, NoProfileDirectoryMessage()));
  }
  // A missing profile directory declares nothing, and is not made just to say so.
  Result<std::optional<ProfileDirectory>> profile = OpenProfileToRead(context);
  if (!profile) return Report(context, "remove", profile.error());
  if (!*profile) {
    return Report(context, "remove",
                  Error(ErrorCode::kNotFound, options.alias + " is not declared in " +
                                                  JoinPath(*location, kDeclarationFileName)));
  }
  DeclarationStore store(**profile);
  Result<std::optional<Declaration>> removed = Undeclare(**profile, options.alias);
  if (!removed) return Report(context, "remove", removed.error());
  context.out << "removed " << options.alias << " from " << store.path() << "\n";
  SayWhatAServerMayHaveLeft(context, **profile, *removed, std::nullopt);
  return kExitOk;
}

}  // namespace

const CommandSpec kRemoveCommand = {"remove", "remove a declaration", "removed", RemoveOptions,
                                    RunRemove};

}  // namespace bravebot
