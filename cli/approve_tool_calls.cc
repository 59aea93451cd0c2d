// bravebot-mcp approve ALIAS:TOOL: answer 2 of the call question, asked at a
// terminal for the project the command runs in, and recorded exactly as a
// session records it, so that a session opened here (a gateway's too) runs
// the tool's calls without the question.
#include <istream>
#include <ostream>

#include "base/shown_text.h"
#include "cli/approve_forms.h"
#include "cli/declaration_lookup.h"
#include "cli/profile_access.h"
#include "cli/requested_here.h"
#include "cli/terminal_questions.h"
#include "cli/typed_ahead.h"
#include "supervisor/store/standing_answers.h"

namespace bravebot {

int ApproveToolCalls(const SimpleOptions& options, CommandContext& context) {
  const std::string named = options.alias + ":" + options.tool;
  const std::string shown = EscapeControlCharacters(named);
  const std::string again = "bravebot-mcp approve " + shown;
  if (!context.at_terminal) {
    return Report(context, "approve",
                  Error(ErrorCode::kRefused,
                        "approve " + shown +
                            " asks a question, and its standard input or output is not a "
                            "terminal: run " +
                            again + " at a terminal, in the project whose calls it answers for"));
  }
  Result<ProfileDirectory> profile = OpenProfileToWrite(context);
  if (!profile) return Report(context, "approve", profile.error());
  if (Result<Declaration> declared = FindDeclaration(*profile, options.alias); !declared) {
    return Report(context, "approve", declared.error());
  }
  if (Status requested = CheckRequestedHere(context, *profile, options.alias, again); !requested) {
    return Report(context, "approve", requested.error());
  }
  // The project as a session opened here names it: the directory it runs
  // in, as bravebot-mcp session gives it (its links resolved).
  const ToolAnswer answer{options.alias, options.tool, context.cwd};
  const std::string project = EscapeControlCharacters(context.cwd);
  StandingAnswers answers(*profile);
  Result<bool> answered = answers.ToolAnswered(answer);
  if (!answered) return Report(context, "approve", answered.error());
  if (*answered) {
    context.out << shown << " runs without the question in " << project
                << " already; bravebot-mcp forget asks about it again\n";
    return kExitOk;
  }

  DiscardTypedAhead(context);
  context.out << "\n  " << shown << "    (MCP)\n\n"
              << "  Each call of it in " << project << " is put to you before it runs.\n"
              << "  A yes is answer 2 at that question: later calls run without it, whatever\n"
              << "  their arguments, until bravebot-mcp forget. A session that let something\n"
              << "  private out of quarantine asks all the same.\n\n"
              << "  Stop asking for " << shown << " in " << project << "? [y/N] " << std::flush;
  std::string typed;
  if (!std::getline(context.in, typed)) {
    context.out << "\n";  // the end of the input echoes no line break
    typed.clear();
  }
  if (!IsYes(typed)) {
    context.out << "nothing was recorded: " << shown << " is put to you before each call in "
                << project << "\n";
    return kExitOk;
  }
  Result<bool> recorded = [&]() -> Result<bool> {
    BRAVEBOT_ASSIGN_OR_RETURN(FileLock lock, profile->Lock());
    return answers.RecordTool(answer, lock);
  }();
  if (!recorded) return Report(context, "approve", recorded.error());
  context.out << shown << " runs without the question in " << project
              << " from now on; bravebot-mcp forget asks about it again\n";
  return kExitOk;
}

}  // namespace bravebot
