// A service that moved, as the session sees it: a request whose answer
// pointed to another place is answered with the spec's question, and
// redirect/answer decides it. A yes sends it there (and every later
// request); once the handshake is done there (a start's, or the one made
// again for a call that met it), the declaration is rewritten to that place
// and approved, so the next session goes there too and puts its list to the
// person again. A no changes nothing, and a call that met it is refused.
#ifndef BRAVEBOT_SUPERVISOR_SESSION_REDIRECT_FLOW_H_
#define BRAVEBOT_SUPERVISOR_SESSION_REDIRECT_FLOW_H_

#include <cstdint>
#include <optional>
#include <string>

#include "supervisor/session/session_context.h"
#include "supervisor/session/tool_calls.h"

namespace bravebot {

class RedirectFlow {
 public:
  RedirectFlow(SessionContext& session, ToolCalls& tool_calls)
      : session_(session), tool_calls_(tool_calls) {}

  // A service's answer to the request under `tag` (0: its start) pointed
  // to `target`: the session's request waiting on it is answered with
  // `question`.
  void Asked(SessionServer& server, std::uint64_t tag, std::string question,
             const std::string& target);
  void Answer(const Json& id, RpcParams params);  // redirect/answer
  // A yes took its start elsewhere: the move kept. Why it holds for this
  // session only, where it does.
  std::optional<std::string> KeepMove(SessionServer& server);
  // A yes to a move met by a call took the running service to `url`.
  void Moved(SessionServer& server, const std::string& url);

 private:
  SessionContext& session_;
  ToolCalls& tool_calls_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SESSION_REDIRECT_FLOW_H_
