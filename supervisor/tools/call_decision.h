// How a call to a server's tool is decided, in the spec's order, and the
// text of the question that puts it to a person. Pure: the facts in, the
// decision out; the supervisor gathers the facts and carries it out.
//
//   CallFacts facts;
//   facts.rule = rules.Decide("weather", "get_alerts");
//   CallDecision decision = DecideCall(facts, "weather", "get_alerts");
#ifndef BRAVEBOT_SUPERVISOR_TOOLS_CALL_DECISION_H_
#define BRAVEBOT_SUPERVISOR_TOOLS_CALL_DECISION_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "supervisor/policy/asking.h"
#include "supervisor/tools/mcp_rules.h"

namespace bravebot {

struct CallFacts {
  Asking asking = Asking::kSomebody;
  bool list_offered = false;  // the server's list was offered to the model
  bool tool_listed = false;   // the tool is in that list
  RuleVerdict rule = RuleVerdict::kNone;
  bool answered_in_project = false;  // answer 2 for this tool, in this project (mcp-tools)
  bool released = false;             // something private was let out of quarantine
};

struct CallDecision {
  enum class Kind { kRun, kAsk, kRefuse };
  Kind kind = Kind::kAsk;
  std::string refusal;  // kRefuse: the sentence the model is told
};

CallDecision DecideCall(const CallFacts& facts, const std::string& alias, const std::string& tool);

// The refusal of a deny rule, the spec's words.
std::string DenyRefusal(const std::string& alias, const std::string& tool);

// What the model is told when the person said no.
std::string DeclinedText(const std::string& alias, const std::string& tool);

// The call question as the spec draws it: the tool and (MCP), the arguments
// the model wrote (each `name: value`, the value as JSON), the first two rows
// of the tool's description behind the margin with "(e to expand)" where
// there are more, then "Proceed?" and its three answers. Where nothing can
// be written (`can_record` false) answer 2 is drawn as not offered.
std::string CallQuestion(const std::string& alias, const std::string& tool,
                         const nlohmann::json& arguments, const std::string& description,
                         bool can_record);
// The same for --plain: every row of the description, then "Proceed? [y/N]".
std::string PlainCallQuestion(const std::string& alias, const std::string& tool,
                              const nlohmann::json& arguments, const std::string& description);

// An answer to the call question: 1 or y runs it; 2 runs it and records the
// tool (where it can be recorded: elsewhere 2 is not an answer); anything
// else, n and the end of input included, declines it.
enum class CallAnswer { kYes, kYesAndRecord, kNo };
CallAnswer ReadCallAnswer(const std::string& typed, bool can_record);

// A yes, as a person types it at any of the session's questions that take
// one: 1, y, Y or yes.
bool IsYesAnswer(std::string_view typed);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_TOOLS_CALL_DECISION_H_
