// One server the session asked for, as the supervisor keeps it: what the
// session was told when it opened, and, once started, its link, its life and
// the session's requests waiting on it, each answered here whatever ends it.
#ifndef BRAVEBOT_SUPERVISOR_SESSION_SESSION_SERVER_H_
#define BRAVEBOT_SUPERVISOR_SESSION_SESSION_SERVER_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "supervisor/servers/server_link.h"
#include "supervisor/session/rpc_messages.h"
#include "supervisor/session/server_requests.h"
#include "supervisor/session/session_opening.h"
#include "supervisor/session/session_replies.h"

namespace bravebot {

enum class ServerLife {
  kNotStarted,  // server/start was not sent for it
  kStarting,    // started: its handshake and tool list are under way
  kRunning,     // answered server/start
  kStopping,    // server/stop, session/close or a failure is ending it
  kEnded,       // it ended: exited, stopped or failed
};

// How it ended, as session/status says it.
enum class ServerEnd { kExited, kStopped, kFailed };
std::string_view ServerEndWord(ServerEnd end);

// Its list read again, after it said the list changed: the tag of the page
// asked for, the pages so far, and whether it said so again since.
struct ListReading {
  std::uint64_t tag = 0;
  ToolListPages pages;
  bool changed_again = false;
};

// A server ended, or is being ended, before it answered: its status is not
// known yet.
RpcError ServerGone(std::string message);
// A sentence about "the server" made to name it by `alias`, since a session
// may serve several.
std::string NamedFor(const std::string& alias, const std::string& sentence);
// server/start's error for a start that failed.
RpcError StartError(const StartFailure& failure);

class SessionServer {
 public:
  // A tool/call waiting on it: its result is marked private, and a failure
  // said in our words, naming the tool.
  struct ToolCall {
    std::string tool;  // as the model named it
    std::string note;  // said beside its result; "" for none
  };

  SessionServer(OpenedServer opened, SessionReplies& replies, ServerRequests& server_requests)
      : opened_(std::move(opened)), replies_(replies), server_requests_(server_requests) {}

  const std::string& alias() const { return opened_.alias; }
  OpenedServer& opened() { return opened_; }
  ServerLife life() const { return life_; }
  // Its link, once its start was asked for; null before, and where its
  // start was refused before anything ran.
  ServerLink* link() const { return link_.get(); }
  std::optional<ServerEnd> end() const { return end_; }
  std::optional<int> status() const { return status_; }

  // Whether server/start may start it: never started, or a service that
  // ended the MCP session it was started in (a new handshake makes a new one).
  bool Startable() const;
  // Its start, for server/start `id`, under way through `link`.
  void Starting(const Json& id, std::shared_ptr<ServerLink> link);
  // Its start refused before anything ran.
  void StartRefused();
  // It started: running, and server/start's id given to be answered.
  Json Running();
  // server/start's id while it waits for its answer; null once answered, or
  // while a question about a move stands in for it.
  Json TakeStartId();
  void PutStartId(const Json& id);
  bool IsStart(const Json& id) const {
    return !start_id_.is_null() && IdKey(start_id_) == IdKey(id);
  }
  // Answers a server/start still waiting with `error`.
  void AnswerStart(const RpcError& error);
  // Ends a start under way at the session's word: server/start is answered
  // with `answer`, and the server stopped (its step "stopped").
  void StopStarting(const RpcError& answer, const std::string& why);
  // Its start failed: server/start answered, and it is stopped.
  void StartFailed(StartStep step, const RpcError& answer);

  // The session's requests sent to it, under tags of this server's.
  std::uint64_t NextTag() { return next_tag_++; }
  void Await(std::uint64_t tag, const Json& id);
  void AwaitCall(std::uint64_t tag, const Json& id, ToolCall call);
  // The id of the session's request under `tag`, no longer waiting on it.
  std::optional<Json> TakeWaiting(std::uint64_t tag);
  std::optional<ToolCall> TakeToolCall(std::uint64_t tag);
  bool HasToolCall(std::uint64_t tag) const { return tool_calls_.contains(tag); }
  // Answers every request of the session waiting on it with `error`.
  void AnswerWaiting(const RpcError& error);

  // Running, it did what ends it: what waits on it is answered with `why`,
  // and its link is stopping it.
  void Broken(const std::string& why);
  // The session stops it while it runs (server/stop, session/close): what
  // waits on it is answered with `why`. Its link is the caller's to stop.
  void StopRunning(const RpcError& why);
  // server/stop `id` is answered at its end.
  void AnswerAtEnd(const Json& id);
  // It ended by itself: what waits is answered, and server/exited sent.
  void Exited(int status);
  // Its end: its status kept, and server/stop answered.
  void Ended(int status);

  // Lines it wrote that are no message are said at most once a second: how
  // many went unsaid since the last said, where this one is to be said.
  std::optional<std::size_t> SayNotAMessage(bool requests_ended);

  // Its list read again, after it said the list changed.
  std::optional<ListReading> list_reading;

 private:
  OpenedServer opened_;
  SessionReplies& replies_;
  ServerRequests& server_requests_;
  ServerLife life_ = ServerLife::kNotStarted;
  std::shared_ptr<ServerLink> link_;
  Json start_id_;                           // the session's server/start, while starting
  std::map<std::uint64_t, Json> requests_;  // our tag -> the session's request id
  std::map<std::uint64_t, ToolCall> tool_calls_;
  std::uint64_t next_tag_ = 1;
  std::vector<Json> stop_ids_;     // server/stop requests waiting for its end
  bool ended_on_request_ = false;  // stopped by the session, or for a failure
  std::optional<ServerEnd> end_;
  std::optional<int> status_;
  std::chrono::steady_clock::time_point not_a_message_said_at_;
  std::size_t not_a_message_unsaid_ = 0;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SESSION_SESSION_SERVER_H_
