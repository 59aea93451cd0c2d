// bravebot-supervisor's service: JSON-RPC 2.0 with one session, one message a
// line on its standard input and output (docs/supervisor-protocol.md). It
// opens the session for a directory, says which servers start and which are
// asked about, records answers, starts servers confined and concurrently,
// relays every message both ways, and owns each server's whole life. All of
// it on one Boost.Asio loop: nothing blocks it but a server's fork and exec.
//
//   boost::asio::io_context io;
//   Supervisor supervisor(io, machine, STDIN_FILENO, STDOUT_FILENO);
//   supervisor.Begin();
//   io.run();                  // until session/close or the end of its input
//   return supervisor.exit_status();
#ifndef BRAVEBOT_SUPERVISOR_SESSION_SUPERVISOR_H_
#define BRAVEBOT_SUPERVISOR_SESSION_SUPERVISOR_H_

#include <array>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "supervisor/mcp/line_splitter.h"
#include "supervisor/servers/channel_factory.h"
#include "supervisor/session/passed_on_request.h"
#include "supervisor/session/rpc_messages.h"
#include "supervisor/session/server_slot.h"
#include "supervisor/session/session_opening.h"
#include "supervisor/session/session_output.h"
#include "supervisor/session/session_tools.h"

namespace bravebot {

class Supervisor {
 public:
  // A server's requests the session has not answered yet, at most, and the
  // length of a string id of one.
  static constexpr std::size_t kMaxServerRequests = 1024;
  static constexpr std::size_t kMaxServerIdBytes = 256;
  // The most session/open's callTimeoutSeconds may be: a day.
  static constexpr long long kMaxCallTimeoutSeconds = 86400;

  // Its servers' channels come from `channels`: confined processes and HTTP
  // services, or scripted servers in its unit tests. It must outlive it.
  Supervisor(boost::asio::io_context& io, SupervisorMachine machine, int input_fd, int output_fd,
             const ChannelFactory& channels = ConfinedChannels());

  void Begin();
  // SIGTERM, SIGINT or SIGHUP: every server is stopped, then the loop ends
  // with the status a shell gives a process ended by `signal`.
  void EndOnSignal(int signal);
  int exit_status() const { return exit_status_; }

 private:
  // A request of the session's still waiting for its answer.
  struct InFlight {
    std::string alias;
    std::uint64_t tag = 0;  // its request on the server; 0 for a server/start
  };
  // A request of a server's, under the id the session sees.
  struct ServerRequest {
    std::string alias;
    Json id;  // as the server gave it
  };

  void ReadInput();
  void TakeLine(const std::string& line);
  void Dispatch(const Json& id, const std::string& method, const Json* params);

  void Open(const Json& id, RpcParams params);
  void Answer(const Json& id, RpcParams params);
  void StartServer(const Json& id, RpcParams params);
  void Relay(const Json& id, RpcParams params);
  // Sends `method` with `params_text` (JSON text, "" for none) to `alias`,
  // its answer to be passed on to request `id`.
  void RelayText(const Json& id, const std::string& alias, const std::string& method,
                 std::string_view params_text, const std::string& what);
  void Notify(const Json& id, RpcParams params);
  void Reply(const Json& id, RpcParams params);
  void Cancel(const Json& id, RpcParams params);
  void StopServer(const Json& id, RpcParams params);
  void AnswerTools(const Json& id, RpcParams params);
  void CallTool(const Json& id, RpcParams params);
  void CallTool(const Json& id, const ToolCallRequest& call);
  void Released(const Json& id, RpcParams params);
  void OfferedTools(const Json& id, RpcParams params);
  // A service's answer pointed elsewhere (supervisor_moves.cc): the waiting
  // request is answered with the question, and redirect/answer decides.
  void OnRedirect(const std::string& alias, std::uint64_t tag, std::string question,
                  std::string target);
  void AnswerRedirect(const Json& id, RpcParams params);
  // Declares the server where it moved and approves that, unless nothing
  // is written; why not, where it could not be.
  std::optional<std::string> RecordMove(ServerSlot& slot);
  // A yes to a move met by a call took the running service to `url`.
  void OnMoved(ServerSlot& slot, const std::string& url);
  void SessionStatus(const Json& id);
  void Close(const Json& id);

  // The slot `alias` names, or an error said to the session.
  ServerSlot* Find(const Json& id, const std::optional<std::string>& alias);

  void OnAnswer(const std::string& alias, McpIncoming answer);
  // A tool/call's answer: the server's result marked private, or its failure
  // in our words; `note` said beside it where there is one.
  void AnswerToolCall(const std::string& alias, const Json& id, McpIncoming answer,
                      const ServerSlot::ToolCall& call);
  // Its list read again, page by page, once it says the list changed; the
  // session is sent server/toolsChanged with what became of it.
  void ReadListAgain(ServerSlot& slot);
  void AskForListPage(ServerSlot& slot);
  void TakeListPage(ServerSlot& slot, McpIncoming answer);
  void OnMessage(const std::string& alias, McpIncoming incoming);
  void OnServerExit(const std::string& alias, int status);
  void Started(ServerSlot& slot);
  // Answers a server/start still waiting with `error`.
  void AnswerStart(ServerSlot& slot, RpcError error);
  static RpcError StartError(const StartFailure& failure);
  // Ends a start under way at the session's word: server/start is answered
  // with `answer`, and the server stopped (its end word "stopped").
  void StopStarting(ServerSlot& slot, RpcError answer, const std::string& why);
  // A running server did what ends it: what waits on it is answered with
  // `why`, and its link is stopping it.
  void Broken(ServerSlot& slot, const std::string& why);
  // Answers every request of the session waiting on `slot` with `error`.
  void AnswerWaiting(ServerSlot& slot, const RpcError& error);
  // Forgets a server's request the session saw as `ours`.
  void ForgetServerRequest(std::int64_t ours);
  // Its end: its status kept, and server/stop answered.
  void Ended(ServerSlot& slot, int status);

  void Respond(const Json& id, Json result);
  void RespondError(const Json& id, RpcError error);
  void Send(const Json& message);
  void Log(const std::string& line);

  // Stops every server, then calls `then`.
  void EndAll(std::function<void()> then);
  void Finish(int status);
  void Congested(bool congested);

  boost::asio::io_context& io_;
  SupervisorMachine machine_;
  const ChannelFactory& channels_;
  boost::asio::posix::stream_descriptor input_;
  boost::asio::steady_timer finish_timer_;
  SessionOutput output_;
  std::array<char, 65536> input_buffer_;
  LineSplitter input_lines_;
  bool reading_input_ = false;
  bool ending_ = false;
  int exit_status_ = 0;

  std::optional<SessionSettings> settings_;  // once session/open is answered
  std::optional<OpenedSession> session_;
  std::optional<SessionTools> tools_;  // once session/open is answered
  // session/open's callTimeoutSeconds: how long a call or a request relayed
  // waits for its server's answer; none, as long as the server takes.
  std::optional<std::chrono::seconds> call_timeout_;
  std::map<std::string, ServerSlot> slots_;
  std::map<std::string, InFlight> in_flight_;  // by the id's JSON text
  std::map<std::int64_t, ServerRequest> server_requests_;
  // The same, by alias and the server's own id, for its cancellations.
  std::map<std::string, std::int64_t> server_request_ids_;
  std::int64_t next_server_request_ = 1;
  std::uint64_t next_tag_ = 1;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SESSION_SUPERVISOR_H_
