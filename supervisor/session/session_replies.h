// What the session is answered through: its output, one message a line, and
// its requests still waiting for an answer, each with the server it waits
// on. Every part of the session answers through it, so a request is answered
// once, and an answer no session could read is said in words in its place.
#ifndef BRAVEBOT_SUPERVISOR_SESSION_SESSION_REPLIES_H_
#define BRAVEBOT_SUPERVISOR_SESSION_SESSION_REPLIES_H_

#include <cstdint>
#include <map>
#include <string>

#include "supervisor/session/rpc_messages.h"
#include "supervisor/session/session_output.h"

namespace bravebot {

class SessionReplies {
 public:
  // A request of the session's waiting for its answer: the server it waits
  // on, and the tag of the request it was sent as (0 for a server/start, a
  // server/stop or session/close, which wait on no request of ours).
  struct Waiting {
    std::string alias;
    std::uint64_t tag = 0;
  };

  explicit SessionReplies(SessionOutput& output) : output_(output) {}

  void Respond(const Json& id, Json result);
  void RespondError(const Json& id, const RpcError& error);
  // A notification; false where it was dropped, longer than a session reads.
  bool Notify(const std::string& method, Json params);
  // A message written by hand as one line (an answer passing a server's
  // result on as it wrote it); false where it is longer than a session reads.
  bool SendLine(std::string line);
  // A line on the supervisor's standard error, escaped.
  static void Log(const std::string& line);
  bool congested() const { return output_.congested(); }

  void Await(const Json& id, std::string alias, std::uint64_t tag);
  void Forget(const Json& id) { waiting_.erase(IdKey(id)); }
  bool IsWaiting(const Json& id) const { return waiting_.contains(IdKey(id)); }
  // What request `id` waits on; null where it waits on nothing.
  const Waiting* Find(const Json& id) const;

 private:
  SessionOutput& output_;
  std::map<std::string, Waiting> waiting_;  // by the id's JSON text
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SESSION_SESSION_REPLIES_H_
