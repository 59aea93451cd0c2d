// bravebot-mcp forget: drops every standing answer recorded for a project,
// and says what it dropped.
#include <ostream>

#include "cli/command.h"
#include "cli/profile_access.h"
#include "cli/simple_options.h"
#include "confine/paths.h"
#include "supervisor/store/standing_answers.h"

namespace bravebot {

namespace {

SimpleCommandSpec ForgetOptions() {
  SimpleCommandSpec spec{"forget",
                         "Drops every standing answer recorded for a project (the current "
                         "directory by default): each tool answer 2 stopped asking about, and "
                         "answer 2 at the server question.",
                         /*takes_alias=*/false,
                         /*takes_json=*/false,
                         {}};
  spec.takes_optional_path = true;
  return spec;
}

int RunForget(const SimpleOptions& options, CommandContext& context) {
  // A path that exists is taken through its links, as a session records it;
  // one that no longer does is taken as typed, so a deleted checkout can
  // still be forgotten.
  const std::string typed = AbsolutePath(options.path.empty() ? "." : options.path, context.cwd);
  const std::string project = context.fs.ResolvedPath(typed).value_or(typed);

  Result<std::optional<ProfileDirectory>> profile = OpenProfileToRead(context);
  if (!profile) return Report(context, "forget", profile.error());
  if (!*profile) {
    context.out << "nothing was recorded for " << project << " where there was nothing\n";
    return kExitOk;
  }
  Result<FileLock> lock = (*profile)->Lock();
  if (!lock) return Report(context, "forget", lock.error());
  Result<ForgottenAnswers> forgotten = StandingAnswers(**profile).Forget(project, *lock);
  if (!forgotten) return Report(context, "forget", forgotten.error());
  for (const std::string& line : DescribeForgotten(*forgotten)) context.out << line << "\n";
  return kExitOk;
}

}  // namespace

const CommandSpec kForgetCommand = {"forget", "drop the standing answers recorded for a project",
                                    "forgotten", ForgetOptions, RunForget};

}  // namespace bravebot
