#include "cli/settings_writers_note.h"

#include <sys/stat.h>

#include <algorithm>
#include <iterator>
#include <ostream>

#include "confine/paths.h"
#include "supervisor/policy/settings_writers.h"
#include "supervisor/store/declaration_store.h"
#include "supervisor/store/settings_file.h"

namespace bravebot {
namespace {

constexpr const char* kFiles[] = {kLocalSettingsFileName, kSettingsFileName};

}  // namespace

void SayIfAServerMayWriteTheRequest(CommandContext& context, const ProfileDirectory& profile,
                                    Scope scope, const std::string& alias) {
  if (scope == Scope::kUser) return;
  // mcp.json was read whole a moment ago by the command itself.
  Result<DeclarationFile> declarations = DeclarationStore(profile).Read();
  if (!declarations) return;
  const std::vector<SettingsWriter> writers = WritersOfCheckoutSettings(
      ResolveCheckoutDirectory(context.cwd), {&*declarations, profile.resolved_path()});
  if (writers.empty()) return;
  const std::string path = SettingsFiles(context.cwd, &profile).PathOf(scope);
  context.out << "but a session here asks for nothing " << path
              << " asks for: " << DescribeServerWritableSettings(path, writers)
              << ". bravebot-mcp enable " << alias
              << " -s user asks for it in a file no server may write\n";
}

void SayWhatAServerMayHaveLeft(CommandContext& context, const ProfileDirectory& profile,
                               const std::optional<Declaration>& before,
                               const std::optional<Declaration>& after) {
  if (!before || before->directory.empty()) return;
  if (after && after->directory == before->directory) return;
  Result<DeclarationFile> declarations = DeclarationStore(profile).Read();
  if (!declarations) return;
  for (const std::string& settings : CheckoutSettingsDirectoriesIn(before->directory).directories) {
    const std::string checkout = ParentPath(settings);
    const bool holds_a_file =
        std::any_of(std::begin(kFiles), std::end(kFiles), [&](const char* name) {
          struct stat status;
          return ::lstat(JoinPath(settings, name).c_str(), &status) == 0;
        });
    if (!holds_a_file || !WritersOfCheckoutSettings(ResolveCheckoutDirectory(checkout),
                                                    {&*declarations, profile.resolved_path()})
                              .empty()) {
      continue;
    }
    context.out << "note: " << before->alias << " could write " << settings
                << " until now, so a session in " << checkout
                << " reads the settings files there whole again, whoever wrote them: read them, "
                   "and take out each allow rule and request you did not write\n";
  }
}

}  // namespace bravebot
