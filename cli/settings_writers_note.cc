#include "cli/settings_writers_note.h"

#include <ostream>

#include "supervisor/policy/settings_writers.h"
#include "supervisor/store/declaration_store.h"
#include "supervisor/store/settings_file.h"

namespace bravebot {

void SayIfAServerMayWriteTheRequest(CommandContext& context, const ProfileDirectory& profile,
                                    Scope scope, const std::string& alias) {
  if (scope == Scope::kUser) return;
  // mcp.json was read whole a moment ago by the command itself.
  Result<DeclarationFile> declarations = DeclarationStore(profile).Read();
  if (!declarations) return;
  const std::vector<SettingsWriter> writers =
      WritersOfCheckoutSettings(context.cwd, {&*declarations, profile.resolved_path()});
  if (writers.empty()) return;
  const std::string path = SettingsFiles(context.cwd, &profile).PathOf(scope);
  context.out << "but a session here asks for nothing " << path
              << " asks for: " << DescribeServerWritableSettings(path, writers)
              << ". bravebot-mcp enable " << alias
              << " -s user asks for it in a file no server may write\n";
}

}  // namespace bravebot
