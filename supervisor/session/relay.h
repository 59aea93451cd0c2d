// Messages carried between the session and a running server: the session's
// requests, notifications and replies to a server (server/request,
// server/notify, server/reply), its cancellations (request/cancel), and what
// a server answers, asks or says of its own accord, each under ids the
// session can tell apart.
#ifndef BRAVEBOT_SUPERVISOR_SESSION_RELAY_H_
#define BRAVEBOT_SUPERVISOR_SESSION_RELAY_H_

#include <string>
#include <string_view>

#include "supervisor/session/session_context.h"
#include "supervisor/session/tool_calls.h"

namespace bravebot {

class Relay {
 public:
  Relay(SessionContext& session, ToolCalls& tool_calls)
      : session_(session), tool_calls_(tool_calls) {}

  void Request(const Json& id, RpcParams params);  // server/request, read as a document
  // Sends `method` with `params_text` (JSON text, "" for none) to `alias`,
  // its answer to be passed on to request `id`.
  void RequestText(const Json& id, const std::string& alias, const std::string& method,
                   std::string_view params_text, const std::string& what);
  void Notify(const Json& id, RpcParams params);         // server/notify
  void Reply(const Json& id, RpcParams params);          // server/reply
  void Cancel(const Json& id, const RpcParams& params);  // request/cancel

  // An answer to a request of ours.
  void OnAnswer(SessionServer& server, McpIncoming answer);
  // A request or a notification of the server's own, or a line that is no
  // message.
  void OnMessage(SessionServer& server, McpIncoming incoming);

 private:
  void SayNotAMessage(SessionServer& server, const McpIncoming& incoming);

  SessionContext& session_;
  ToolCalls& tool_calls_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SESSION_RELAY_H_
