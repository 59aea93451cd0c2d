#include "cli/server_question.h"

#include <istream>
#include <ostream>

#include "cli/declaration_lookup.h"
#include "cli/declaration_view.h"
#include "cli/typed_ahead.h"
#include "confine/digest.h"
#include "supervisor/policy/runner_lines.h"
#include "supervisor/store/approval_store.h"

namespace bravebot {
namespace {

bool IsYes(const std::string& answer) { return answer == "y" || answer == "Y" || answer == "yes"; }

// What changed since the alias was last approved, then the runner's lines.
std::vector<std::string> RowsUnderTheBlock(const ApprovalFile& approvals,
                                           const Declaration& declaration) {
  std::vector<std::string> rows;
  const ServerApproval* last = approvals.LastUnderAlias(declaration.alias);
  if (last != nullptr && last->digest != ComputeDigest(declaration).hex) {
    std::string changed;
    for (const std::string& field : ChangedSince(*last, declaration)) {
      changed += (changed.empty() ? "" : ", ") + field;
    }
    rows.push_back("changed: " + changed);
  }
  for (const std::string& line : RunnerLines(declaration)) rows.push_back(line);
  return rows;
}

}  // namespace

bool AskServerQuestion(CommandContext& context, const Declaration& declaration,
                       const ApprovalFile& approvals) {
  DiscardTypedAhead(context);
  context.out << DisplayDeclarationBlock(declaration, ComputeDigest(declaration).Short(),
                                         RowsUnderTheBlock(approvals, declaration))
              << "\n  Use this MCP server? [y/N] " << std::flush;
  std::string answer;
  if (!std::getline(context.in, answer)) {
    // The end of the input echoes no line break, so the next line would
    // start on the prompt's.
    context.out << "\n";
    return false;
  }
  return IsYes(answer);
}

Status ApproveAsShown(const ProfileDirectory& profile, const Declaration& shown,
                      const std::function<Status(const FileLock& held)>& also) {
  BRAVEBOT_ASSIGN_OR_RETURN(FileLock lock, profile.Lock());
  BRAVEBOT_ASSIGN_OR_RETURN(Declaration now, FindDeclaration(profile, shown.alias));
  if (ComputeDigest(now).hex != ComputeDigest(shown).hex) {
    return Error(ErrorCode::kRefused, shown.alias +
                                          " was declared anew while the question was open, so "
                                          "what you answered is not what it runs: ask again");
  }
  Status approved =
      ApprovalStore(profile).Change(lock, [&](ApprovalFile& file) { file.Approve(shown); });
  if (!approved || !also) return approved;
  return also(lock);
}

}  // namespace bravebot
