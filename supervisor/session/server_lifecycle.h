// A server's life in the session, as the session asks for it: its question
// answered (server/answer), its start (server/start) through the handshake
// and its list to its answer, its stop (server/stop), and what ends it.
#ifndef BRAVEBOT_SUPERVISOR_SESSION_SERVER_LIFECYCLE_H_
#define BRAVEBOT_SUPERVISOR_SESSION_SERVER_LIFECYCLE_H_

#include <functional>
#include <string>

#include "supervisor/session/redirect_flow.h"
#include "supervisor/session/session_context.h"

namespace bravebot {

class ServerLifecycle {
 public:
  // `events_for` makes the events a server's link reports through.
  using EventsFor = std::function<LinkEvents(const std::string& alias)>;

  ServerLifecycle(SessionContext& session, RedirectFlow& redirects, EventsFor events_for)
      : session_(session), redirects_(redirects), events_for_(std::move(events_for)) {}

  void Answer(const Json& id, RpcParams params);  // server/answer
  void Start(const Json& id, RpcParams params);   // server/start
  void Stop(const Json& id, RpcParams params);    // server/stop

  // Its handshake and list are done: server/start is answered.
  void Started(SessionServer& server);
  // Its start failed: server/start is answered with why.
  void StartFailed(SessionServer& server, const StartFailure& failure);
  // Stops every server the session started; `then` once all have ended.
  void StopAll(std::function<void()> then);

 private:
  SessionContext& session_;
  RedirectFlow& redirects_;
  EventsFor events_for_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SESSION_SERVER_LIFECYCLE_H_
