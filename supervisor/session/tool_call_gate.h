// The tool-call gate: what a session does with each started server's tool list and each call to
// one of its tools: the offer and its answer (tools/answer), the list pinned
// in mcp-approved, the call decided and its answer 2 recorded in mcp-tools
// (tool/call), what was let out of quarantine (session/released), and what
// the model is offered (tools/offered). It reads and writes the profile
// directory; it sends nothing: the supervisor does, with what it returns.
//
//   ToolCallGate tools(settings, session);
//   Json fields = tools.TakeList("weather", server_digest, list);  // into server/start's answer
//   Result<Json> answered = tools.AnswerOffer("weather", "1");
//   CallPlan plan = tools.PlanCall("weather", "get_alerts", arguments, answer);
#ifndef BRAVEBOT_SUPERVISOR_SESSION_TOOL_CALL_GATE_H_
#define BRAVEBOT_SUPERVISOR_SESSION_TOOL_CALL_GATE_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/result.h"
#include "supervisor/session/rpc_messages.h"
#include "supervisor/session/session_opening.h"
#include "supervisor/tools/call_decision.h"
#include "supervisor/tools/tool_offer.h"

namespace bravebot {

// What became of a server's list in this session.
enum class ListOffer {
  kPending,   // its question waits for tools/answer
  kOffered,   // offered to the model
  kDeclined,  // answered 2 (or anything but 1): nothing offered
  kWithheld,  // nobody could be asked, and nobody said yes to it before
};

// What tool/call is to do.
struct CallPlan {
  enum class Kind { kSend, kAnswer };
  Kind kind = Kind::kAnswer;
  Json answer;       // kAnswer: the result to give the session
  std::string note;  // kSend: said beside the result ("" for none)
};

class ToolCallGate {
 public:
  ToolCallGate(const SessionSettings& settings, const OpenedSession& session)
      : settings_(settings), session_(session) {}

  // Takes a started server's whole list and returns what server/start and
  // server/toolsChanged say of it: toolsDigest, toolsState, offer,
  // modelTools, lint, offered, and note where nobody could be asked. A list
  // said yes to is offered; skip-permissions offers any list, asking nothing;
  // where nobody can be asked, a list nobody said yes to is withheld.
  Json TakeList(const std::string& alias, const std::string& server_digest,
                std::vector<nlohmann::ordered_json> tools);

  // tools/answer: 1 (or y) offers the list and writes its tools line, except
  // where nothing is written; anything else offers nothing and records
  // nothing. kRefused where no question waits.
  // `shown`, where given, is the toolsDigest of the list the person was
  // shown: a list that changed since is not the one answered, and the
  // answer is refused.
  Result<Json> AnswerOffer(const std::string& alias, const std::string& typed,
                           const std::optional<std::string>& shown = std::nullopt);

  // tool/call: decides the call, asks, records answer 2. kSend: send it.
  // `arguments_text`: the arguments object as written, "" for none.
  CallPlan PlanCall(const std::string& alias, const std::string& tool,
                    std::string_view arguments_text, const std::optional<std::string>& typed);

  void SetReleased(bool released) { released_ = released; }
  bool released() const { return released_; }

  // The modelTools of every offered list, or of those of `aliases`.
  Json Offered(const std::optional<std::vector<std::string>>& aliases) const;

  // The line /status draws under a running server, after "ALIAS: ".
  std::string StatusLine(const std::string& alias) const;

  bool Knows(const std::string& alias) const { return lists_.contains(alias); }

 private:
  struct ServerList {
    std::string server_digest;
    std::vector<nlohmann::ordered_json> tools;
    std::set<std::string> names;
    std::string digest;
    ListOffer offer = ListOffer::kPending;
  };

  // Whether an answer can be written: not incognito, one-shot or
  // skip-permissions, and a profile directory to write in.
  bool CanRecord() const;
  Status RecordList(const ServerList& list) const;

  const SessionSettings& settings_;
  const OpenedSession& session_;
  std::map<std::string, ServerList> lists_;
  bool released_ = false;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SESSION_TOOL_CALL_GATE_H_
