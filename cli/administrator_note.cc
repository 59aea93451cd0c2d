#include "cli/administrator_note.h"

#include <ostream>

#include "supervisor/policy/managed_policy.h"
#include "supervisor/policy/session_plan.h"

namespace bravebot {

void SayIfTheAdministratorRefuses(CommandContext& context, const Declaration& declaration) {
  const ManagedDecision decision = AdministratorDecision(
      LoadManagedPolicy(ManagedFilePath(context.getenv)), declaration, context.getenv, context.fs);
  if (decision.allowed) return;
  context.out << declaration.alias
              << " will not start, whatever is declared or approved: " << decision.reason << "\n";
}

}  // namespace bravebot
