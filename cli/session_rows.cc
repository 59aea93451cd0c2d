#include "cli/session_rows.h"

#include <algorithm>

#include "cli/declaration_view.h"
#include "cli/sign_in_words.h"
#include "confine/digest.h"

namespace bravebot {
namespace {

std::string PaddedTo(const std::string& text, size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

const PlannedServer* PlannedFor(const SessionRowsInput& input, const std::string& alias) {
  if (input.plan == nullptr) return nullptr;
  for (const PlannedServer& server : input.plan->requested) {
    if (server.alias == alias) return &server;
  }
  return nullptr;
}

std::string JoinedFiles(const std::vector<std::string>& files) {
  std::string joined;
  for (size_t i = 0; i < files.size(); ++i) {
    joined += (i == 0 ? "" : i + 1 == files.size() ? " and " : ", ") + files[i];
  }
  return joined;
}

std::string WhatASessionDoes(const PlannedServer* planned) {
  if (planned == nullptr) return "not requested here, so no session here holds a grant to call it";
  std::string row = "requested by " + JoinedFiles(planned->requested_by) + ": ";
  switch (planned->decision) {
    case ServerDecision::kStartUnasked:
      return row + "a session here starts it unasked, and holds a grant to call it";
    case ServerDecision::kAsk:
      return row +
             "a session at a terminal here asks before starting it, and holds a grant to "
             "call it only after a yes";
    case ServerDecision::kNotStarted:
      return row + "a session here does not start it, since the administrator refuses it";
  }
  return row;
}

std::string Answered(const SessionRowsInput& input, const std::string& alias) {
  std::vector<std::string> answers;
  if (input.servers_answered) answers.push_back("use all future MCP servers in this project");
  for (const ToolAnswer& answer : input.tool_answers) {
    if (answer.server == alias)
      answers.push_back("call " + DisplayWord(answer.tool) + " without asking");
  }
  if (answers.empty()) return "nothing is answered for it here";
  std::string row = "answered here: ";
  for (size_t i = 0; i < answers.size(); ++i) row += (i == 0 ? "" : ", ") + answers[i];
  return row;
}

// Why the administrator refuses it, or "" when it does not.
std::string AdministratorRefusal(const SessionRowsInput& input, const Declaration& declaration,
                                 const PlannedServer* planned) {
  if (planned != nullptr)
    return planned->refused_by_administrator ? planned->administrator_reason : "";
  if (input.policy == nullptr || input.fs == nullptr) return "";
  ManagedDecision decision =
      AdministratorDecision(*input.policy, declaration, input.getenv, *input.fs);
  return decision.allowed ? "" : decision.reason;
}

// A server asked for here whose entry cannot be used is listed once, with
// what is wrong with it, and not also as a server nobody declared.
bool NotDeclared(const SessionRowsInput& input, const PlannedServer& server) {
  return !server.declaration && input.declarations->FindUnusable(server.alias) == nullptr;
}

bool Approved(const SessionRowsInput& input, const Declaration& declaration) {
  return input.approvals->Approves(ComputeDigest(declaration).hex);
}

std::optional<StoredToken> KeptSignIn(const SessionRowsInput& input,
                                      const Declaration& declaration) {
  return input.tokens == nullptr ? std::nullopt : KeptTokenIn(*input.tokens, declaration);
}

}  // namespace

std::string DisplaySessionRows(const SessionRowsInput& input) {
  size_t width = 0;
  for (const Declaration& declaration : input.declarations->declarations) {
    width = std::max(width, declaration.alias.size());
  }
  for (const UnusableEntry& entry : input.declarations->unusable) {
    width = std::max(width, DisplayWord(entry.alias).size());
  }
  if (input.plan != nullptr) {
    for (const PlannedServer& server : input.plan->requested) {
      width = std::max(width, server.alias.size());
    }
  }
  const std::string under(2 + width + 2 + 2, ' ');
  std::string text;
  for (const Declaration& declaration : input.declarations->declarations) {
    const PlannedServer* planned = PlannedFor(input, declaration.alias);
    text += "  " + PaddedTo(declaration.alias, width + 2) +
            PaddedTo(std::string(TransportName(declaration.transport)), 7) +
            PaddedTo(Approved(input, declaration) ? "approved" : "unapproved", 12) +
            ComputeDigest(declaration).Short();
    if (std::string refusal = AdministratorRefusal(input, declaration, planned); !refusal.empty()) {
      text += "  not started: " + refusal;
    }
    if (std::optional<StoredToken> token = KeptSignIn(input, declaration)) {
      text += "  " + SignInWords(token, input.now);
    }
    text += "\n";
    if (input.plan == nullptr) continue;
    text += under + WhatASessionDoes(planned) + "\n";
    text += under + Answered(input, declaration.alias) + "\n";
  }
  if (input.plan != nullptr) {
    for (const PlannedServer& server : input.plan->requested) {
      if (!NotDeclared(input, server)) continue;
      text += "  " + PaddedTo(server.alias, width + 2) + "not declared: requested by " +
              JoinedFiles(server.requested_by) + ", so nothing runs for it: bravebot-mcp add " +
              server.alias + " declares it\n";
    }
  }
  for (const UnusableEntry& entry : input.declarations->unusable) {
    text += "  " + PaddedTo(DisplayWord(entry.alias), width + 2) +
            "cannot be used: " + entry.problem + "\n";
  }
  return text;
}

nlohmann::json SessionRowsJson(const SessionRowsInput& input) {
  nlohmann::json servers = nlohmann::json::array();
  for (const Declaration& declaration : input.declarations->declarations) {
    nlohmann::json summary = DeclarationSummaryJson(declaration);
    summary["approved"] = Approved(input, declaration);
    if (const PlannedServer* planned = PlannedFor(input, declaration.alias)) {
      summary["requested_by"] = planned->requested_by;
      summary["session"] = planned->decision == ServerDecision::kStartUnasked ? "start unasked"
                           : planned->decision == ServerDecision::kAsk        ? "ask"
                                                                              : "not started";
    } else {
      summary["requested_by"] = nlohmann::json::array();
    }
    const PlannedServer* planned = PlannedFor(input, declaration.alias);
    if (std::string refusal = AdministratorRefusal(input, declaration, planned); !refusal.empty()) {
      summary["not_started"] = refusal;
    }
    if (input.tokens != nullptr)
      AddSignInFields(summary, declaration, KeptSignIn(input, declaration));
    servers.push_back(summary);
  }
  nlohmann::json undeclared = nlohmann::json::array();
  if (input.plan != nullptr) {
    for (const PlannedServer& server : input.plan->requested) {
      if (NotDeclared(input, server)) {
        undeclared.push_back({{"alias", server.alias}, {"requested_by", server.requested_by}});
      }
    }
  }
  nlohmann::json unusable = nlohmann::json::array();
  for (const UnusableEntry& entry : input.declarations->unusable) {
    unusable.push_back({{"alias", entry.alias}, {"problem", entry.problem}});
  }
  return {{"servers", servers}, {"requested_not_declared", undeclared}, {"unusable", unusable}};
}

}  // namespace bravebot
