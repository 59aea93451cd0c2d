// One server spoken to over MCP on an event loop, a stdio server started
// confined or a service reached over streamable HTTP (servers/http_channel.h):
// first its start, to the point where it is of use (the handshake and its
// whole tool list, within a timeout), then every message both ways. The
// supervisor and mcp-run both start servers through it, so a start fails in
// the same steps and the same words in both.
//
//   auto link = ServerLink::Start(io, declaration, options, {timeout, {}}, events);
//   ... events.on_started(): link->hello(), link->tools()
//   link->Request(tag, "tools/call", params, "tools/call for echo");
//   ... events.on_answer(incoming) with incoming.tag == tag
//   link->Stop([](int status) { ... });
//
// Its two flows are coroutines on the loop, each in one place and read top
// to bottom (server_link_flows.cc): the start (its channel opened, the
// handshake, the tool list page by page) and a service's redirect (the
// person asked, and on a yes the handshake made at the new place before the
// request goes there). They wait on what the channel's callbacks hand them
// (servers/awaited_events.h); whatever ends them otherwise (a start failed
// or given up, the server's end, a request cancelled) closes what they wait
// on, and they end there. They hold no reference to the link: a link that
// goes destroys them with what they wait on.
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_SERVER_LINK_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_SERVER_LINK_H_

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <list>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "confine/declaration.h"
#include "supervisor/mcp/mcp_connection.h"
#include "supervisor/mcp/mcp_startup.h"
#include "supervisor/policy/redirect_decision.h"
#include "supervisor/servers/awaited_events.h"
#include "supervisor/servers/channel_factory.h"
#include "supervisor/servers/confined_server.h"
#include "supervisor/servers/running_server.h"
#include "supervisor/servers/server_channel.h"
#include "supervisor/servers/start_failure.h"
#include "supervisor/servers/stop_sequence.h"  // kEndAfterOutputClosed

namespace bravebot {

// The code a request that waited past Options::request_timeout fails with:
// the one the MCP SDKs give their own RequestTimeout.
inline constexpr std::int64_t kRequestTimedOutCode = -32001;

struct LinkEvents {
  // Its process runs (pid() and run_directory() say which): it may be
  // called before a start fails or succeeds. Optional.
  std::function<void()> on_launched;
  std::function<void()> on_started;
  std::function<void(const StartFailure& failure)> on_start_failed;
  // Once started: the answer to a request of ours.
  std::function<void(McpIncoming answer)> on_answer;
  // A request or a notification of the server's own, at any time.
  std::function<void(McpIncoming message)> on_message;
  std::function<void(std::string line)> on_stderr_line;
  // Once started: what it did that ends it (a line too long or too deep to
  // read, its output closed while it runs on), in a sentence about "the
  // server"; it is being stopped, and on_exit follows.
  std::function<void(const std::string& why)> on_broken;
  // Once started: it ended, by itself or stopped.
  std::function<void(int status)> on_exit;
  // A service's answer to the request under `tag` (0: its start) points to
  // another place, and a person can be asked whether it moved: nothing was
  // sent there, and the request waits for AnswerRedirect (one given inside
  // on_redirect is taken once it has returned). A start's time stands
  // still meanwhile.
  std::function<void(std::uint64_t tag, std::string question, std::string target)> on_redirect;
  // Once started: a yes to such a move took the service to `url`, and the
  // handshake was made there; the request waiting was sent there. Or the
  // service there asks for a sign-in first, and the link has ended (its
  // on_broken came first). A start's move is told by moved_to() once it has
  // started, or where its start failed for want of a sign-in.
  std::function<void(const std::string& url)> on_moved;
};

class ServerLink : public std::enable_shared_from_this<ServerLink> {
 public:
  struct Options {
    std::chrono::seconds startup_timeout{30};
    // The client capabilities offered in initialize.
    nlohmann::ordered_json capabilities = nlohmann::ordered_json::object();
    // For a service: who could be asked whether it moved.
    Asking asking = Asking::kOneShot;
    // Where a program is launched (RunningServer::LaunchOn): mcp-run, which
    // starts one and waits for it, launches it on its own thread.
    RunningServer::LaunchOn launch_on = RunningServer::LaunchOn::kLauncherThread;
    // How long a request of ours made once it started may wait for its
    // answer (none: as long as the server takes). Past it the server is
    // sent notifications/cancelled, and on_answer gets the request with a
    // fault of code kRequestTimedOutCode. The time stands still while a
    // person is asked whether a service moved.
    std::optional<std::chrono::seconds> request_timeout;
    // Where its channel comes from: confined processes and HTTP services,
    // or, in the session's unit tests, scripted servers. Must outlive it.
    const ChannelFactory* channels = &ConfinedChannels();
  };

  // Starts it, its channel opened by `link_options.channels`. Every outcome comes through
  // `events`, from the loop, once Start has returned: a start refused before
  // anything runs too. The loop must outlive the link.
  static std::shared_ptr<ServerLink> Start(boost::asio::io_context& io,
                                           const Declaration& declaration,
                                           const ServerStartOptions& options, Options link_options,
                                           LinkEvents events);

  // A request of ours under `tag` (never 0, the start's); false when its
  // input is closed or too much waits for it.
  bool Request(std::uint64_t tag, const std::string& method, const nlohmann::ordered_json& params,
               std::string what = "");
  // The same for a request passed on: its params as JSON text ("" for
  // none), its answer's result as text (McpConnection::RequestPassingOn).
  bool RequestPassingOn(std::uint64_t tag, const std::string& method, std::string_view params_text,
                        std::string what);
  bool Notify(const std::string& method, const nlohmann::ordered_json& params);
  bool Reply(const nlohmann::ordered_json& id, const nlohmann::ordered_json& result);
  bool ReplyError(const nlohmann::ordered_json& id, const nlohmann::ordered_json& error);
  // Forgets the request under `tag` and tells the server it was cancelled.
  void Cancel(std::uint64_t tag, const std::string& reason);
  // The first question about a redirect still waiting for its answer: the
  // tag of the request that met it, and where it points. One is answered at
  // a time, in the order they were put.
  std::optional<std::pair<std::uint64_t, std::string>> FirstAskedRedirect() const {
    if (asked_redirects_.empty()) return std::nullopt;
    return std::make_pair(asked_redirects_.front().tag, asked_redirects_.front().target);
  }
  // The person's answer to on_redirect for the request under `tag`.
  void AnswerRedirect(std::uint64_t tag, bool yes);
  // Where a service was said to have moved, by a yes; "" where it did not.
  const std::string& moved_to() const { return moved_to_; }
  // Whether the service ended the MCP session this link made (on_broken
  // said so): a new start makes a new one.
  bool session_ended() const { return session_ended_; }
  // Forgets every request of ours still unanswered: no redirect is asked
  // about any more, and a move under way ends.
  void ForgetRequests();

  // Ends a start under way with `failure` (step and words), and stops it.
  void AbandonStart(const StartFailure& failure);
  // Ends it; `done` gets its status. After a start that failed, `done` is
  // called at its end all the same.
  void Stop(std::function<void(int status)> done = nullptr);

  void PauseOutput();
  void ResumeOutput();

  bool started() const { return started_; }
  bool starting() const { return !started_ && !start_over_; }
  bool ended() const { return !opening_ && (!process_ || process_->ended()); }
  pid_t pid() const { return process_ ? process_->pid() : -1; }
  std::string run_directory() const { return process_ ? process_->run_directory() : ""; }
  const InitializeResult& hello() const { return startup_.hello(); }
  std::vector<nlohmann::ordered_json>& tools() { return startup_.tools(); }
  std::vector<std::string> stderr_tail() const;

  // What its start said, for a failure named `step` for `why`.
  StartFailure Failure(StartStep step, const std::string& why,
                       std::optional<int> status = std::nullopt) const;

  ServerLink(boost::asio::io_context& io, std::string alias, Options options, LinkEvents events);
  ~ServerLink();

 private:
  // The tag of the start's requests.
  static constexpr std::uint64_t kStartupTag = 0;
  // The step a failed handshake names.
  static StartStep StepOf(const McpFault& fault);
  // The tag of the handshake made again where a service moved, never one
  // of the session's; and the id it goes with (McpConnection::RequestAs).
  static constexpr std::uint64_t kMoveHandshakeTag = std::numeric_limits<std::uint64_t>::max();
  static constexpr std::int64_t kMoveHandshakeId = -1;
  // How long that handshake may take, as long as a service's HTTP answer to
  // a notification may (HttpChannelOptions::request_timeout).
  static constexpr std::chrono::seconds kMoveHandshakeTimeout{30};

  // A question about a redirect put to the person, and the answer its flow
  // waits for.
  struct AskedRedirect {
    std::uint64_t tag;
    std::string target;
    AwaitedEvents<bool> answer;
  };
  // A line written while the handshake is made where the service moved: it
  // goes there after it. `id` is a request's.
  struct HeldLine {
    std::optional<std::int64_t> id;
    std::string line;
  };

  // --- The flows (server_link_flows.cc).

  // Runs `flow` on the loop, only while the link lives.
  void Spawn(std::function<boost::asio::awaitable<void>()> flow);
  // The start: its channel opened, the handshake, its whole tool list.
  boost::asio::awaitable<void> Starting();
  // The redirect the request `id` (under `tag`) met: the person asked, and
  // on a yes the service reached where it points.
  boost::asio::awaitable<void> Redirected(std::int64_t id, std::uint64_t tag, std::string question,
                                          std::string target);
  // The handshake made again at `target`, where every request goes now;
  // why it failed, or nullopt. `ended` is set where the link ended first.
  boost::asio::awaitable<std::optional<Error>> ShakeHandsAt(const std::string& target, bool& ended);
  // A move whose handshake failed, for `why`: what waited for it fails,
  // and nothing more can be asked of the service. Where it failed only for
  // want of a sign-in there, the move is kept (on_moved): `login` signs in
  // where the person said it is.
  void MoveFailed(std::int64_t id, const std::string& target, const Error& why);
  // The start's time, and the request's, run again from a person's answer.
  void RestartTimers(std::uint64_t tag);
  // Every flow waiting ends: the link's channel ended. EndRedirectFlows:
  // every redirect's, every request of ours being forgotten.
  void EndFlows();
  void EndRedirectFlows();

  // --- What the channel says.

  void Open(const Declaration& declaration, const ServerStartOptions& options);
  ChannelEvents EventsForChannel();
  // Its channel opened, or why not.
  void Opened(Result<std::shared_ptr<ServerChannel>> channel);
  StartFailure OpenFailure(const Error& error) const;
  void OnOverflow();
  void OnRequestFailed(std::int64_t id, const Error& why);
  void OnRequestFailed(std::int64_t id, const std::string& why);
  void OnSessionEnded(const std::string& why);
  void OnRedirect(std::int64_t id, std::string question, std::string target);
  void ArmStartupTimer();
  void OnLine(const std::string& line);
  // A line after its start that is no message: it may have been meant as
  // the answer to any request of ours under way, so each of them ends.
  void EndRequestsFor(McpIncoming& skipped);
  // The request under `id` gets no answer, for a fault of `kind` and
  // `code`: the server is told it was cancelled, for `reason`, and
  // on_answer gets it with the fault.
  // `words` says why from the request's `what`, about "the server".
  void GiveUp(std::int64_t id, McpFailureKind kind, std::int64_t code,
              const std::function<std::string(const std::string& what)>& words,
              const std::string& reason);
  void ArmRequestTimer(std::uint64_t tag);
  void RequestTimedOut(std::uint64_t tag);
  void OnExit(int status);
  void OutputClosed();
  void StartFailed(const StartFailure& failure);
  // Writes `line` (a request's, under `id`), or holds it while the
  // handshake is made where the service moved.
  bool Send(std::string line, std::optional<std::int64_t> id = std::nullopt);
  // The request sent under `id` is given up: neither the channel nor a
  // move holds it any more.
  void ForgetSent(std::int64_t id);
  void ForgetAskedRedirect(std::uint64_t tag);
  // Whether initialize was answered where requests go now: a move then
  // makes it again at the new place.
  bool HandshakeMade() const { return started_ || startup_.awaiting() != "initialize"; }

  boost::asio::io_context& io_;
  std::string alias_;
  Options options_;
  LinkEvents events_;
  std::shared_ptr<ServerChannel> process_;  // its process, or a service's HTTP
  ChannelFactory::Abandon abandon_open_;    // while its channel is opened
  bool opening_ = false;
  // Asked for while its channel was opened, done once it is.
  bool output_paused_ = false;
  bool stop_asked_ = false;  // Stop() was called, while launched or after
  std::vector<std::function<void(int status)>> stopped_;
  McpConnection connection_;
  McpStartup startup_;
  boost::asio::steady_timer startup_timer_;
  boost::asio::steady_timer closed_timer_;  // from its output's end, for its own end
  bool service_ = false;                    // reached over HTTP, not started as a process
  // What the start waits for: its channel, then the answers to its requests.
  AwaitedEvents<Result<std::shared_ptr<ServerChannel>>> opened_;
  AwaitedEvents<McpIncoming> start_answers_;
  // Each request whose redirect the person is asked about, in the order
  // they were put; a request that ends otherwise (given up, failed,
  // cancelled, forgotten) is no longer asked about, and its flow ends.
  // Each flow removes its own question once it has its answer.
  std::list<AskedRedirect> asked_redirects_;
  // A move whose handshake is under way: where to, its answer (or why
  // none came), its time, and what was written meanwhile.
  bool moving_ = false;
  std::string move_target_;
  AwaitedEvents<Result<McpIncoming>> move_answer_;
  boost::asio::steady_timer move_timer_;
  std::deque<HeldLine> behind_move_;
  // Each request of ours under way, by tag, with request_timeout: its timer.
  std::map<std::uint64_t, std::unique_ptr<boost::asio::steady_timer>> request_timers_;
  std::string moved_to_;
  bool started_ = false;
  bool start_over_ = false;  // the start failed (or was abandoned)
  bool broken_ = false;
  bool session_ended_ = false;  // a service ended the MCP session it made
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_SERVER_LINK_H_
