// The session's requests about tool lists and calls: tools/answer, tool/call,
// session/released and tools/offered, and a server's list read again when it
// says it changed. What is decided is the gate's (tool_call_gate.h); what is
// here is reading the params, sending, and answering.
#ifndef BRAVEBOT_SUPERVISOR_SESSION_TOOL_CALLS_H_
#define BRAVEBOT_SUPERVISOR_SESSION_TOOL_CALLS_H_

#include "supervisor/session/passed_on_request.h"
#include "supervisor/session/session_context.h"

namespace bravebot {

class ToolCalls {
 public:
  explicit ToolCalls(SessionContext& session) : session_(session) {}

  void AnswerList(const Json& id, RpcParams params);  // tools/answer
  void Call(const Json& id, RpcParams params);        // tool/call, read as a document
  void Call(const Json& id, const ToolCallRequest& call);
  void Released(const Json& id, RpcParams params);  // session/released
  void Offered(const Json& id, RpcParams params);   // tools/offered

  // A call's answer: the server's result marked private, or its failure in
  // our words; the call's note said beside it where there is one.
  void Answer(SessionServer& server, const Json& id, McpIncoming answer,
              const SessionServer::ToolCall& call);
  // Its list read again, page by page, once it says the list changed; the
  // session is sent server/toolsChanged with what became of it.
  void ReadListAgain(SessionServer& server);
  // Whether `answer` is a page of a list read again, and so taken here.
  bool TakeListPage(SessionServer& server, McpIncoming& answer);

 private:
  void AskForListPage(SessionServer& server);

  SessionContext& session_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SESSION_TOOL_CALLS_H_
