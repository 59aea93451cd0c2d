// A service server spoken to over MCP's streamable HTTP, as a channel a
// ServerLink speaks through exactly as it does a stdio server's pipes: each
// line written is a POST; what comes back, a JSON answer or each event of a
// server-sent-event stream, comes out as lines; once the handshake is done,
// the GET stream (where the server offers one) brings what it sends of its
// own accord, resumed with Last-Event-ID when it drops; Stop sends DELETE.
//
// A redirect is never followed by libcurl: each goes to DecideRedirect. One
// to the same scheme, host and port is followed here; one a person may be
// asked about is held and told (on_redirect), and its link decides it
// (ServerChannel::Move, SendHeld, Forget), making the handshake at the new
// place itself; one anywhere else fails the request with the words
// DecideRedirect gives, so nothing is sent there.
//
// Declared headers (add --header) go with every request to the declared
// origin, and never to another: not after a redirect elsewhere, not where a
// yes moved it (HttpClient::SendToOriginOnly).
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_HTTP_CHANNEL_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_HTTP_CHANNEL_H_

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "confine/declaration.h"
#include "supervisor/mcp/sse_parser.h"
#include "supervisor/mcp/streamable_http.h"
#include "supervisor/policy/managed_policy.h"
#include "supervisor/policy/redirect_decision.h"
#include "supervisor/servers/confined_server.h"
#include "supervisor/servers/http_channel_options.h"
#include "supervisor/servers/http_client.h"
#include "supervisor/servers/http_listen_stream.h"
#include "supervisor/servers/server_channel.h"

namespace bravebot {

struct HttpChannelEvents {
  std::function<void(std::string line)> on_line;  // a message the service sent
  std::function<void()> on_overflow;              // an answer or an event too long to read
  // A request of ours that will get no answer: its id, and why, in our
  // words (ErrorCode::kSignInNeeded where the service asks for a sign-in).
  std::function<void(std::int64_t id, const Error& why)> on_request_failed;
  // The answer to request `id` points to another place, and a person can be
  // asked whether the server moved: `question` is the spec's text. Nothing
  // was sent there; the request waits for AnswerRedirect.
  std::function<void(std::int64_t id, std::string question, std::string target)> on_redirect;
  // The service ended its MCP session (a 404 to a POST that carried its
  // id; every request under way has failed with `why` first). Requests go
  // without a session from now on, until an initialize makes a new one.
  std::function<void(std::string why)> on_session_ended;
  // POSTs ended, and Write may take what it refused: from the loop.
  std::function<void()> on_room;
  std::function<void(int status)> on_exit;  // it was stopped
};

class HttpChannel : public ServerChannel, public std::enable_shared_from_this<HttpChannel> {
 public:
  // Requests under way at once before Write refuses another. Each answer
  // is bounded by kMaxLineBytes, so a service that answers every one with
  // as much as it may holds at most 16 of those.
  static constexpr std::size_t kMaxPostsUnderWay = 16;
  // POSTs of every kind under way at once: notifications and replies too.
  static constexpr std::size_t kMaxPostsAtAll = 64;
  // What the answers under way may hold at once, all of them, before the
  // one that would hold more is given up: a service that answers 16
  // requests at once with as much as each may is held to this, not 16
  // times 16 MiB. Its GET stream holds 16 MiB more at most.
  static constexpr std::size_t kMaxAnswerBytesHeld = std::size_t{32} << 20;
  static std::shared_ptr<HttpChannel> Open(boost::asio::io_context& io, HttpChannelOptions options,
                                           HttpChannelEvents events);
  HttpChannel(boost::asio::io_context& io, HttpChannelOptions options, HttpChannelEvents events);

  bool Write(std::string line) override;
  // Whether Write would take a request (`request`), or a notification or a
  // reply, now.
  bool HasRoomFor(bool request) const {
    return !stopping_ && posts_.size() < kMaxPostsAtAll &&
           (!request || requests_under_way() < kMaxPostsUnderWay);
  }
  // Backpressure: no answer or stream is read further until resumed.
  void PauseOutput() override { http_.Pause(); }
  void ResumeOutput() override { http_.Resume(); }
  void Stop(std::function<void(int status)> done = nullptr) override;
  bool ended() const override { return ended_; }
  bool wrote_output() const override { return wrote_output_; }
  std::vector<std::string> stderr_tail() const override { return {}; }
  pid_t pid() const override { return -1; }
  std::string run_directory() const override { return ""; }
  // A request of ours given up (cancelled), or its redirect refused: its
  // POST is ended, so a service that would never answer it holds nothing
  // for it.
  void Forget(std::int64_t id) override;
  void Move(std::int64_t id) override;
  void SendHeld(std::int64_t id) override;

 private:
  struct Post;
  void Send(const std::shared_ptr<Post>& post);
  // The declared headers and the bearer, for http_ to send to the declared
  // origin alone, the bearer while it is kept.
  void SendOriginHeaders();
  void OnHead(const std::shared_ptr<Post>& post, const HttpResponseHead& head);
  void OnBody(const std::shared_ptr<Post>& post, std::string_view bytes);
  void OnDone(const std::shared_ptr<Post>& post, const Status& done);
  // A message the service sent, in answer to `post` or on its own stream.
  void Deliver(const std::shared_ptr<Post>& post, std::string message);
  void FailPost(const std::shared_ptr<Post>& post, const Error& why);
  void FailPost(const std::shared_ptr<Post>& post, std::string why);
  void SessionEnded(const std::string& why);
  std::size_t requests_under_way() const;
  std::size_t answer_bytes_held() const;
  // Gives up `post` where the answers under way hold more than they may.
  bool GaveUpForRoom(const std::shared_ptr<Post>& post);
  void Finished(const std::shared_ptr<Post>& post);
  void Erase(const std::shared_ptr<Post>& post);
  // Every POST is over: the session is ended with DELETE, where it has one.
  void EndSession();
  void Ended();

  boost::asio::io_context& io_;
  HttpChannelOptions options_;
  HttpChannelEvents events_;
  std::string url_;  // where requests go: the declared url, or where it moved for good
  HttpClient http_;
  StreamableHttpClient client_;
  std::set<std::shared_ptr<Post>> posts_;
  // Requests whose answer pointed elsewhere, waiting for the person, by id.
  std::map<std::int64_t, std::shared_ptr<Post>> held_;
  // The GET stream: opened as the handshake is done, closed as a new one
  // begins.
  std::shared_ptr<HttpListenStream> listen_;
  bool wrote_output_ = false;
  bool stopping_ = false;
  bool session_ending_ = false;
  bool room_told_ = false;               // on_room is on its way
  boost::asio::steady_timer end_timer_;  // while the last notifications finish
  bool ended_ = false;
  std::vector<std::function<void(int status)>> stopped_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_HTTP_CHANNEL_H_
