// How bravebot-mcp audit's report is drawn for a person, and as JSON for a
// script (its shape: docs/audit.schema.json).
#ifndef BRAVEBOT_CLI_AUDIT_VIEW_H_
#define BRAVEBOT_CLI_AUDIT_VIEW_H_

#include <nlohmann/json.hpp>
#include <string>

#include "cli/audit_report.h"

namespace bravebot {

std::string DisplayAudit(const AuditReport& report);

nlohmann::json AuditJson(const AuditReport& report);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_AUDIT_VIEW_H_
