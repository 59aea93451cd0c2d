#include "supervisor/session/tool_call_gate.h"

#include <algorithm>
#include <utility>

#include "supervisor/store/approval_store.h"
#include "supervisor/store/standing_answers.h"
#include "supervisor/tools/model_tools.h"
#include "supervisor/tools/tool_list_lint.h"

namespace bravebot {
namespace {

std::string WithheldNote(const std::string& alias) {
  return "note: " + alias + " offers no tool in this session: its list was not approved";
}

const nlohmann::ordered_json* FindTool(const std::vector<nlohmann::ordered_json>& tools,
                                       const std::string& name) {
  for (const nlohmann::ordered_json& tool : tools) {
    auto found = tool.find("name");
    if (found != tool.end() && found->is_string() && *found == name) return &tool;
  }
  return nullptr;
}

std::string DescriptionOf(const nlohmann::ordered_json* tool) {
  if (tool == nullptr) return "";
  auto found = tool->find("description");
  return found != tool->end() && found->is_string() ? found->get<std::string>() : "";
}

}  // namespace

bool ToolCallGate::CanRecord() const {
  return !settings_.incognito && settings_.asking != Asking::kSkipPermissions &&
         settings_.asking != Asking::kOneShot && session_.profile.has_value();
}

Json ToolCallGate::TakeList(const std::string& alias, const std::string& server_digest,
                            std::vector<nlohmann::ordered_json> tools) {
  ServerList& list = lists_[alias];
  const std::string digest_before = list.digest;
  const ListOffer offer_before = list.offer;
  list.server_digest = server_digest;
  list.tools = std::move(tools);
  list.names.clear();
  for (const nlohmann::ordered_json& tool : list.tools) {
    if (auto name = tool.find("name"); name != tool.end() && name->is_string()) {
      list.names.insert(name->get<std::string>());
    }
  }
  list.digest = ToolListDigest(list.tools);

  std::optional<std::string> note;
  ToolsState state = ToolsState::kAsk;
  if (session_.profile) {
    // Read now, not when the session opened: another session may have said
    // yes to this list since.
    Result<ApprovalFile> approvals = ApprovalStore(*session_.profile).Read();
    if (approvals) {
      state = StateOfToolList(*approvals, server_digest, list.digest);
    } else {
      note = "note: " + alias + "'s list is asked about, since " + approvals.error().message();
    }
  }
  if (list.digest == digest_before &&
      (offer_before == ListOffer::kOffered || offer_before == ListOffer::kDeclined)) {
    // Read again and found the same: what was answered for it holds, where
    // nothing was written as well.
    list.offer = offer_before;
  } else if (settings_.asking == Asking::kSkipPermissions || state == ToolsState::kApproved) {
    list.offer = ListOffer::kOffered;
  } else if (settings_.asking != Asking::kSomebody) {
    list.offer = ListOffer::kWithheld;
    note = WithheldNote(alias);
  } else {
    list.offer = ListOffer::kPending;
  }

  ToolListLintContext context;
  context.builtin_tools = settings_.builtin_tools;
  for (const OpenedServer& server : session_.servers) {
    if (server.alias == alias) continue;
    auto known = lists_.find(server.alias);
    auto& names = context.other_servers[server.alias];
    if (known != lists_.end()) names.assign(known->second.names.begin(), known->second.names.end());
  }
  Json lint = Json::array();
  for (const ToolListFinding& finding : LintToolList(alias, list.tools, context)) {
    lint.push_back(finding.ToJson());
  }
  Json fields = {
      {"toolsDigest", list.digest},
      {"toolsState", ToolsStateWord(state)},
      {"offer", ToolOffer(alias, list.tools, state)},
      {"modelTools", ModelTools(alias, list.tools)},
      {"lint", std::move(lint)},
      {"offered", list.offer == ListOffer::kOffered},
  };
  if (note) fields["note"] = *note;
  return fields;
}

Status ToolCallGate::RecordList(const ServerList& list) const {
  BRAVEBOT_ASSIGN_OR_RETURN(FileLock lock, session_.profile->Lock());
  return ApprovalStore(*session_.profile).Change(lock, [&](ApprovalFile& file) {
    file.ApproveToolList(list.server_digest, list.digest);
  });
}

Result<Json> ToolCallGate::AnswerOffer(const std::string& alias, const std::string& typed,
                                       const std::optional<std::string>& shown) {
  auto found = lists_.find(alias);
  if (found == lists_.end()) {
    return Error(ErrorCode::kRefused, alias + " has no list to answer for: server/start reads it");
  }
  ServerList& list = found->second;
  if (list.offer != ListOffer::kPending) {
    return Error(ErrorCode::kRefused,
                 alias + "'s list has no question waiting: " + StatusLine(alias));
  }
  if (shown && *shown != list.digest) {
    return Error(ErrorCode::kRefused,
                 alias +
                     "'s list changed since it was shown, so the answer was not taken: "
                     "server/toolsChanged brings the list to answer for");
  }
  // In --plain the question is answered y or n; a yes there is answer 1.
  if (!IsYesAnswer(typed)) {
    list.offer = ListOffer::kDeclined;
    return Json{{"offered", false}};
  }
  list.offer = ListOffer::kOffered;
  Json answer = {{"offered", true}, {"modelTools", ModelTools(alias, list.tools)}};
  if (CanRecord()) {
    Status recorded = RecordList(list);
    if (!recorded) {
      answer["note"] =
          "the yes holds for this session, and was not recorded: " + recorded.error().message();
    }
  }
  return answer;
}

CallPlan ToolCallGate::PlanCall(const std::string& alias, const std::string& tool,
                                std::string_view arguments_text,
                                const std::optional<std::string>& typed) {
  auto found = lists_.find(alias);
  CallFacts facts;
  facts.asking = settings_.asking;
  facts.list_offered = found != lists_.end() && found->second.offer == ListOffer::kOffered;
  facts.tool_listed = found != lists_.end() && found->second.names.contains(tool);
  facts.rule = session_.rules.Decide(alias, tool);
  facts.released = released_;
  const ToolAnswer standing{alias, tool, settings_.directory};
  // Answer 2 is read from mcp-tools only where it decides: where the call
  // would run with it and not without it (so not on every call of a session
  // that skips permissions, or under an allow rule).
  facts.answered_in_project = true;
  const bool answer_decides = DecideCall(facts, alias, tool).kind == CallDecision::Kind::kRun;
  facts.answered_in_project = false;
  CallDecision decision = DecideCall(facts, alias, tool);
  if (answer_decides && decision.kind != CallDecision::Kind::kRun && session_.profile) {
    // One that cannot be read answers nothing: the call is put to the person.
    Result<bool> answered = StandingAnswers(*session_.profile).ToolAnswered(standing);
    facts.answered_in_project = answered && *answered;
    decision = DecideCall(facts, alias, tool);
  }
  CallPlan plan;
  if (decision.kind == CallDecision::Kind::kRefuse) {
    plan.answer = {{"state", "refused"}, {"text", decision.refusal}};
    return plan;
  }
  if (decision.kind == CallDecision::Kind::kRun) {
    plan.kind = CallPlan::Kind::kSend;
    return plan;
  }
  const std::string description = DescriptionOf(FindTool(found->second.tools, tool));
  if (!typed) {
    // Read whole only to be shown: it was read as an object already.
    const nlohmann::json arguments = arguments_text.empty()
                                         ? nlohmann::json::object()
                                         : nlohmann::json::parse(arguments_text, nullptr, false);
    plan.answer = {{"state", "ask"},
                   {"question", CallQuestion(alias, tool, arguments, description, CanRecord())},
                   {"plainQuestion", PlainCallQuestion(alias, tool, arguments, description)}};
    return plan;
  }
  const CallAnswer answer = ReadCallAnswer(*typed, CanRecord());
  if (answer == CallAnswer::kNo) {
    plan.answer = {{"state", "declined"}, {"text", DeclinedText(alias, tool)}};
    return plan;
  }
  plan.kind = CallPlan::Kind::kSend;
  if (answer == CallAnswer::kYesAndRecord) {
    Result<bool> recorded = [&]() -> Result<bool> {
      BRAVEBOT_ASSIGN_OR_RETURN(FileLock lock, session_.profile->Lock());
      return StandingAnswers(*session_.profile).RecordTool(standing, lock);
    }();
    if (!recorded) {
      plan.note = "the call runs, and its answer 2 was not recorded: " + recorded.error().message();
    }
  }
  return plan;
}

Json ToolCallGate::Offered(const std::optional<std::vector<std::string>>& aliases) const {
  Json offered = Json::array();
  for (const auto& [alias, list] : lists_) {
    if (list.offer != ListOffer::kOffered) continue;
    if (aliases && std::find(aliases->begin(), aliases->end(), alias) == aliases->end()) continue;
    for (Json& tool : ModelTools(alias, list.tools)) offered.push_back(std::move(tool));
  }
  return offered;
}

std::string ToolCallGate::StatusLine(const std::string& alias) const {
  auto found = lists_.find(alias);
  if (found == lists_.end()) return "its tools are put to you before the next turn plans";
  switch (found->second.offer) {
    case ListOffer::kOffered: {
      const std::size_t count = found->second.tools.size();
      return std::to_string(count) + (count == 1 ? " tool" : " tools") + " offered to the model";
    }
    case ListOffer::kDeclined:
      return "no tool offered, as you answered";
    case ListOffer::kWithheld:
      return "no tool offered: its list was not approved";
    case ListOffer::kPending:
      break;
  }
  return "its tools are put to you before the next turn plans";
}

}  // namespace bravebot
