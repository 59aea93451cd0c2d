#include "supervisor/servers/http_channel.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <utility>

#include "base/bounded_json.h"
#include "base/shown_text.h"
#include "supervisor/mcp/json_rpc_lines.h"

namespace bravebot {
namespace {

using Json = nlohmann::ordered_json;

// How long a DELETE is given at the stop before the service is left be.
constexpr std::chrono::seconds kEndGrace{2};

// The session a request was sent in: its MCP-Session-Id, "" for none.
std::string SessionOf(const HttpRequest& request) {
  for (const auto& [name, value] : request.headers) {
    if (name == "MCP-Session-Id") return value;
  }
  return "";
}

}  // namespace

struct HttpChannel::Post {
  std::string line;
  std::optional<std::int64_t> id;  // a request's: an answer is awaited
  bool initialize = false;
  bool answered = false;
  std::string url;
  int followed = 0;  // same-origin redirects followed
  HttpClient::TransferId transfer = 0;
  HttpRequest request;
  HttpResponseHead head;
  std::optional<AnswerBody> body;
  std::string json;  // a JSON answer, as it comes
  SseParser events;
  bool over = false;     // answered, failed or given up
  std::string moved_to;  // where its answer pointed, while the person is asked
};

std::shared_ptr<HttpChannel> HttpChannel::Open(boost::asio::io_context& io,
                                               HttpChannelOptions options,
                                               HttpChannelEvents events) {
  auto channel = std::make_shared<HttpChannel>(io, std::move(options), std::move(events));
  std::weak_ptr<HttpChannel> weak = channel;
  HttpListenStream::Events stream;
  stream.on_message = [weak](std::string message) {
    if (auto self = weak.lock()) self->Deliver(nullptr, std::move(message));
  };
  stream.on_overflow = [weak] {
    if (auto self = weak.lock(); self && self->events_.on_overflow) self->events_.on_overflow();
  };
  channel->listen_ = std::make_shared<HttpListenStream>(io, channel->http_, channel->client_,
                                                        channel->url_, std::move(stream));
  return channel;
}

HttpChannel::HttpChannel(boost::asio::io_context& io, HttpChannelOptions options,
                         HttpChannelEvents events)
    : io_(io),
      options_(std::move(options)),
      events_(std::move(events)),
      url_(options_.url),
      http_(io, options_.alias),
      end_timer_(io) {
  SendOriginHeaders();
}

void HttpChannel::SendOriginHeaders() {
  // Every request made here (each POST, the GET stream, the DELETE) goes
  // through http_, which sends these only to the declared origin.
  std::vector<std::pair<std::string, std::string>> headers;
  for (const StoredHeader& header : options_.headers)
    headers.emplace_back(header.name, header.value);
  http_.SendToOriginOnly(options_.url, std::move(headers));
  if (options_.bearer) http_.SendSignIn(*options_.bearer, options_.sign_in_kept);
}

bool HttpChannel::Write(std::string line) {
  if (stopping_) return false;
  auto post = std::make_shared<Post>();
  const Json message = ReadBoundedJsonOrDiscarded<Json>(line);
  std::string method;
  if (message.is_object()) {
    if (auto named = message.find("method"); named != message.end() && named->is_string()) {
      method = named->get<std::string>();
    }
    auto id = message.find("id");
    if (!method.empty() && id != message.end() && id->is_number_integer()) {
      post->id = id->get<std::int64_t>();
    }
  }
  // Requests are what a service may hold unanswered; a notification or a
  // reply (notifications/cancelled among them) goes while fewer than
  // kMaxPostsAtAll are under way: a service that asks without end and
  // takes no answer would otherwise hold a connection for each.
  if (!HasRoomFor(post->id.has_value())) return false;
  post->initialize = method == "initialize";
  if (post->initialize) {
    // A new handshake is a new session: the old one's id and stream go.
    client_.ForgetSession();
    listen_->Close();
  }
  post->line = std::move(line);
  post->url = url_;
  posts_.insert(post);
  Send(post);
  // The handshake is done: what the service sends of its own accord comes
  // on the GET stream from now on.
  if (method == "notifications/initialized") listen_->Open();
  return true;
}

void HttpChannel::Send(const std::shared_ptr<Post>& post) {
  post->request = client_.Post(post->line);
  post->body.reset();
  post->json.clear();
  post->events = SseParser();
  std::weak_ptr<HttpChannel> weak = weak_from_this();
  // A request waits for its answer as long as a program's would, until it
  // is cancelled; a notification or a reply is taken at once, or never.
  const std::chrono::milliseconds timeout =
      post->id ? std::chrono::milliseconds(0) : options_.request_timeout;
  post->transfer = http_.Send(post->url, post->request, timeout,
                              {[weak, post](const HttpResponseHead& head) {
                                 if (auto self = weak.lock()) self->OnHead(post, head);
                               },
                               [weak, post](std::string_view bytes) {
                                 if (auto self = weak.lock()) self->OnBody(post, bytes);
                               },
                               [weak, post](const Status& done) {
                                 if (auto self = weak.lock()) self->OnDone(post, done);
                               }});
}

void HttpChannel::OnHead(const std::shared_ptr<Post>& post, const HttpResponseHead& head) {
  if (post->over) return;
  post->head = head;
  Result<AnswerBody> body =
      ReadAnswerHead(options_.alias, post->request, head, post->id.has_value());
  // Only a 404 in the session now under way ends it: one to a request
  // still out from a session before (a handshake made again since) fails
  // just that request.
  if (!body && body.error().code() == ErrorCode::kNotFound && !stopping_ &&
      SessionOf(post->request) == client_.session_id()) {
    return SessionEnded(body.error().message());
  }
  if (!body) return FailPost(post, body.error());
  if (*body != AnswerBody::kRedirect) {
    post->body = *body;
    return;
  }
  std::optional<std::string> target = ResolveLocation(post->url, head.location);
  if (!target) {
    return FailPost(post, options_.alias +
                              " was not reached: its reply points somewhere no url names, so "
                              "nothing was sent there");
  }
  Redirect redirect;
  redirect.alias = options_.alias;
  redirect.declared_url = options_.url;
  redirect.request_url = post->url;
  redirect.method = "POST";
  redirect.status = static_cast<int>(head.status);
  redirect.target = *target;
  redirect.followed = post->followed;
  redirect.asking = options_.asking;
  redirect.declared_headers = !options_.headers.empty();
  redirect.signed_in = http_.sends_sign_in();
  RedirectDecision next = DecideRedirect(redirect, options_.policy);
  switch (next.action) {
    case RedirectAction::kFollow:
      http_.Cancel(post->transfer);
      ++post->followed;
      // A move for good holds for every later request too, where the
      // request was sent where they go (not to a place left since).
      if ((head.status == 301 || head.status == 308) && post->url == url_) url_ = next.url;
      post->url = next.url;
      return Send(post);
    case RedirectAction::kAsk:
      // Nothing is sent there before the person says yes; a notification
      // or a reply, which nobody waits on, is not worth the question.
      if (!post->id || !events_.on_redirect) {
        return FailPost(post, options_.alias + " was not reached at " +
                                  EscapeControlCharacters(next.url) +
                                  ", where its reply points, so nothing was sent there");
      }
      http_.Cancel(post->transfer);
      Erase(post);
      post->moved_to = next.url;
      held_[*post->id] = post;
      return events_.on_redirect(*post->id, next.question, next.url);
    case RedirectAction::kRefuse:
      return FailPost(post, next.reason);
  }
}

void HttpChannel::OnBody(const std::shared_ptr<Post>& post, std::string_view bytes) {
  if (post->over || !post->body) return;
  if (*post->body == AnswerBody::kJson) {
    post->json.append(bytes);
    if (GaveUpForRoom(post)) return;
    if (post->json.size() > kMaxLineBytes) {
      post->over = true;
      http_.Cancel(post->transfer);
      Erase(post);
      if (events_.on_overflow) events_.on_overflow();
    }
    return;
  }
  if (*post->body != AnswerBody::kEventStream) return;
  post->events.Feed(bytes);
  while (std::optional<SseEvent> event = post->events.Next()) {
    if (event->data.empty()) continue;  // a priming event, or a keep-alive
    Deliver(post, std::move(event->data));
    if (post->over || stopping_) return;
  }
  if (GaveUpForRoom(post)) return;
  if (post->events.overflowed()) {
    post->over = true;
    http_.Cancel(post->transfer);
    Erase(post);
    if (events_.on_overflow) events_.on_overflow();
  }
}

void HttpChannel::OnDone(const std::shared_ptr<Post>& post, const Status& done) {
  if (post->over) return;
  if (!done) return FailPost(post, done.error());
  if (post->body == AnswerBody::kJson && !post->json.empty()) {
    Deliver(post, std::exchange(post->json, std::string()));
  }
  if (post->over) return;
  if (stopping_) return Finished(post);
  if (post->id && !post->answered) {
    const bool cut = post->body == AnswerBody::kEventStream && post->events.EndedMidEvent();
    return FailPost(post, cut ? options_.alias +
                                    " ended its event stream in the middle of an "
                                    "event, before its answer came"
                              : options_.alias +
                                    " ended its answer to POST with no answer to "
                                    "the request in it");
  }
  post->over = true;
  Erase(post);
}

void HttpChannel::Deliver(const std::shared_ptr<Post>& post, std::string message) {
  wrote_output_ = true;
  if (post && post->id && !post->answered) {
    const Json parsed = ReadBoundedJsonOrDiscarded<Json>(message);
    auto id = parsed.is_object() ? parsed.find("id") : parsed.end();
    if (parsed.is_object() && !parsed.contains("method") && id != parsed.end() &&
        id->is_number_integer() && id->get<std::int64_t>() == *post->id) {
      post->answered = true;
      // The session and version agreed go on every request from the next
      // on: notifications/initialized is written as this answer is taken.
      if (post->initialize) {
        const Json* result = parsed.contains("result") ? &parsed["result"] : nullptr;
        std::string version = result && result->is_object() &&
                                      result->contains("protocolVersion") &&
                                      (*result)["protocolVersion"].is_string()
                                  ? (*result)["protocolVersion"].get<std::string>()
                                  : "";
        client_.TakeHandshake(post->head, std::move(version));
      }
    }
  }
  const bool answered_now = post && post->answered && !post->over;
  if (events_.on_line) events_.on_line(std::move(message));
  // Its answer came: the stream that brought it has nothing more of ours.
  if (answered_now && !post->over) {
    post->over = true;
    http_.Cancel(post->transfer);
    Erase(post);
  }
}

// A POST done while the channel stops: the last one lets the session end.
void HttpChannel::Finished(const std::shared_ptr<Post>& post) {
  post->over = true;
  http_.Cancel(post->transfer);
  Erase(post);
  if (posts_.empty()) EndSession();
}

void HttpChannel::FailPost(const std::shared_ptr<Post>& post, const Error& why) {
  if (stopping_) return Finished(post);
  post->over = true;
  http_.Cancel(post->transfer);
  Erase(post);
  if (post->id && !post->answered && events_.on_request_failed) {
    events_.on_request_failed(*post->id, why);
  }
}

void HttpChannel::FailPost(const std::shared_ptr<Post>& post, std::string why) {
  FailPost(post, Error(ErrorCode::kRefused, std::move(why)));
}

void HttpChannel::SessionEnded(const std::string& why) {
  client_.ForgetSession();
  listen_->Close();
  for (const auto& post : std::set<std::shared_ptr<Post>>(posts_)) {
    if (post->id && !post->over) FailPost(post, why);
  }
  if (events_.on_session_ended) events_.on_session_ended(why);
}

// Where a yes took the service: every request from now on. The request
// that met the redirect waits for SendHeld, as its link makes the
// handshake there first.
void HttpChannel::Move(std::int64_t id) {
  auto held = held_.find(id);
  if (held == held_.end() || stopping_) return;
  url_ = held->second->moved_to;
}

void HttpChannel::SendHeld(std::int64_t id) {
  auto held = held_.find(id);
  if (held == held_.end() || stopping_) return;
  std::shared_ptr<Post> post = std::move(held->second);
  held_.erase(held);
  post->url = url_;
  post->followed = 0;
  posts_.insert(post);
  Send(post);
}

// A POST is over: its room is free again, which the owner hears of from
// the loop (once for any number freed at once).
void HttpChannel::Erase(const std::shared_ptr<Post>& post) {
  if (posts_.erase(post) == 0 || !events_.on_room || room_told_) return;
  room_told_ = true;
  std::weak_ptr<HttpChannel> weak = weak_from_this();
  boost::asio::post(io_, [weak] {
    auto self = weak.lock();
    if (!self) return;
    self->room_told_ = false;
    if (!self->stopping_) self->events_.on_room();
  });
}

std::size_t HttpChannel::requests_under_way() const {
  return static_cast<std::size_t>(std::count_if(
      posts_.begin(), posts_.end(), [](const auto& post) { return post->id.has_value(); }));
}

std::size_t HttpChannel::answer_bytes_held() const {
  std::size_t held = 0;
  for (const auto& post : posts_) held += post->json.size() + post->events.held_bytes();
  return held;
}

bool HttpChannel::GaveUpForRoom(const std::shared_ptr<Post>& post) {
  if (answer_bytes_held() <= kMaxAnswerBytesHeld) return false;
  FailPost(post, options_.alias + "'s answers under way hold more than " +
                     std::to_string(kMaxAnswerBytesHeld >> 20) +
                     " MiB at once, which bravebot-mcp does not hold, so this one was given up");
  return true;
}

void HttpChannel::Forget(std::int64_t id) {
  held_.erase(id);
  for (const auto& post : std::set<std::shared_ptr<Post>>(posts_)) {
    if (post->id != id) continue;
    post->over = true;
    http_.Cancel(post->transfer);
    Erase(post);
  }
}

void HttpChannel::Stop(std::function<void(int status)> done) {
  if (ended_) {
    if (done) boost::asio::post(io_, [done] { done(0); });
    return;
  }
  if (done) stopped_.push_back(std::move(done));
  if (stopping_) return;
  stopping_ = true;
  listen_->Stop();
  held_.clear();
  // Requests are given up; what was said to the service (a cancellation, a
  // reply) is let finish first, for kEndGrace at most, so that the last
  // word said before the end reaches it before its session ends.
  for (const auto& post : std::set<std::shared_ptr<Post>>(posts_)) {
    if (!post->id) continue;
    post->over = true;
    http_.Cancel(post->transfer);
    Erase(post);
  }
  if (posts_.empty()) return EndSession();
  std::weak_ptr<HttpChannel> weak = weak_from_this();
  end_timer_.expires_after(kEndGrace);
  end_timer_.async_wait([weak](const boost::system::error_code& error) {
    if (auto self = weak.lock(); self && !error) self->EndSession();
  });
}

void HttpChannel::EndSession() {
  if (session_ending_) return;
  session_ending_ = true;
  end_timer_.cancel();
  for (const auto& post : std::set<std::shared_ptr<Post>>(posts_)) {
    post->over = true;
    http_.Cancel(post->transfer);
  }
  posts_.clear();
  std::weak_ptr<HttpChannel> weak = weak_from_this();
  if (!client_.has_session()) {
    boost::asio::post(io_, [weak] {
      if (auto self = weak.lock()) self->Ended();
    });
    return;
  }
  // The service is told its session ended; a service that does not answer
  // in time is left be.
  http_.Send(url_, client_.End(), kEndGrace, {nullptr, nullptr, [weak](const Status&) {
                                                if (auto self = weak.lock()) self->Ended();
                                              }});
}

void HttpChannel::Ended() {
  ended_ = true;
  for (auto& done : std::exchange(stopped_, {})) done(0);
  if (events_.on_exit) events_.on_exit(0);
}

}  // namespace bravebot
