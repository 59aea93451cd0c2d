#include "supervisor/servers/server_link.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <utility>
#include <variant>

#include "base/shown_text.h"
#include "supervisor/servers/http_channel.h"

namespace bravebot {

StartStep ServerLink::StepOf(const McpFault& fault) {
  switch (fault.kind) {
    case McpFailureKind::kNotJson:
      return StartStep::kNotJson;
    case McpFailureKind::kUnsupportedVersion:
      return StartStep::kUnsupportedVersion;
    case McpFailureKind::kTimedOut:
      return StartStep::kTimeout;
    default:
      return StartStep::kMalformed;
  }
}

ServerLink::ServerLink(boost::asio::io_context& io, std::string alias, Options options,
                       LinkEvents events)
    : io_(io),
      alias_(std::move(alias)),
      options_(std::move(options)),
      events_(std::move(events)),
      startup_(connection_, kStartupTag, options_.capabilities),
      startup_timer_(io),
      closed_timer_(io),
      move_timer_(io) {}

ServerLink::~ServerLink() {
  if (opening_) abandon_open_();
}

std::shared_ptr<ServerLink> ServerLink::Start(boost::asio::io_context& io,
                                              const Declaration& declaration,
                                              const ServerStartOptions& options,
                                              Options link_options, LinkEvents events) {
  auto link = std::make_shared<ServerLink>(io, declaration.alias, std::move(link_options),
                                           std::move(events));
  link->service_ = declaration.transport == Transport::kHttp;
  link->Open(declaration, options);
  return link;
}

void ServerLink::Open(const Declaration& declaration, const ServerStartOptions& options) {
  std::weak_ptr<ServerLink> weak = weak_from_this();
  ArmStartupTimer();
  ChannelSettings settings{alias_, options_.asking, options_.launch_on};
  opening_ = true;
  abandon_open_ = options_.channels->Open(io_, declaration, options, settings, EventsForChannel(),
                                          [weak](Result<std::shared_ptr<ServerChannel>> channel) {
                                            if (auto self = weak.lock()) {
                                              self->Opened(std::move(channel));
                                            } else if (channel) {
                                              (*channel)->Stop();
                                            }
                                          });
  Spawn([this] { return Starting(); });
}

ChannelEvents ServerLink::EventsForChannel() {
  std::weak_ptr<ServerLink> weak = weak_from_this();
  ChannelEvents events;
  events.on_line = [weak](const std::string& line) {
    if (auto self = weak.lock()) self->OnLine(line);
  };
  events.on_stderr_line = [weak](std::string line) {
    if (auto self = weak.lock(); self && self->events_.on_stderr_line) {
      self->events_.on_stderr_line(std::move(line));
    }
  };
  events.on_overflow = [weak] {
    if (auto self = weak.lock()) self->OnOverflow();
  };
  events.on_exit = [weak](int status) {
    if (auto self = weak.lock()) self->OnExit(status);
  };
  events.on_output_closed = [weak] {
    if (auto self = weak.lock()) self->OutputClosed();
  };
  events.on_request_failed = [weak](std::int64_t id, const Error& why) {
    if (auto self = weak.lock()) self->OnRequestFailed(id, why);
  };
  events.on_redirect = [weak](std::int64_t id, std::string question, std::string target) {
    if (auto self = weak.lock()) self->OnRedirect(id, std::move(question), std::move(target));
  };
  events.on_session_ended = [weak](const std::string& why) {
    if (auto self = weak.lock()) self->OnSessionEnded(why);
  };
  return events;
}

// The start waits for it (Starting).
void ServerLink::Opened(Result<std::shared_ptr<ServerChannel>> channel) {
  opening_ = false;
  abandon_open_ = nullptr;
  opened_.Give(std::move(channel));
}

StartFailure ServerLink::OpenFailure(const Error& error) const {
  // A refusal at its start names the server already, and is said as it is.
  if (error.code() == ErrorCode::kNotStarted) {
    StartFailure failure = Failure(StartStep::kRefused, "");
    failure.message = error.message();
    return failure;
  }
  return Failure(
      error.code() == ErrorCode::kNotFound ? StartStep::kNotFound : StartStep::kConfinement,
      error.message());
}

void ServerLink::OnOverflow() {
  const std::string why = "the server wrote a line longer than 16 MiB" + connection_.AwaitedText() +
                          ", which bravebot-mcp does not read, so what it answered cannot be "
                          "known";
  if (!started_) {
    StartFailed(Failure(StartStep::kMalformed, why));
  } else if (!broken_) {
    broken_ = true;
    events_.on_broken(why);
    process_->Stop();
  }
}

// The service ended the MCP session this link made: nothing more can be
// asked of it here. Its requests failed already, in the same words; a start
// under way fails with them. A new handshake is a new start, and only the
// session asks for one (server/start).
void ServerLink::OnSessionEnded(const std::string& why) {
  if (start_over_ || broken_ || stop_asked_) return;
  if (!started_) return StartFailed(Failure(StartStep::kUnreachable, why));
  broken_ = true;
  session_ended_ = true;
  events_.on_broken(why);
  process_->Stop();
}

// A service that could not be reached, or answered a request with an HTTP
// error: that request gets no answer, and says why in our words.
void ServerLink::OnRequestFailed(std::int64_t id, const Error& why) {
  if (start_over_ || broken_) return;
  std::optional<McpIncoming> failed =
      connection_.Fail(id, McpFault{McpFailureKind::kMalformed, why.message(), std::nullopt});
  if (!failed) return;
  request_timers_.erase(failed->tag);
  ForgetAskedRedirect(failed->tag);
  if (failed->tag == kStartupTag) {
    const bool sign_in = why.code() == ErrorCode::kSignInNeeded;
    if (!started_) {
      StartFailed(
          Failure(sign_in ? StartStep::kSignInNeeded : StartStep::kUnreachable, why.message()));
    }
    return;
  }
  // The handshake where the service moved: its flow says what failed.
  if (failed->tag == kMoveHandshakeTag) return move_answer_.Give(why);
  events_.on_answer(std::move(*failed));
}

void ServerLink::OnRequestFailed(std::int64_t id, const std::string& why) {
  OnRequestFailed(id, Error(ErrorCode::kRefused, why));
}

// A redirect a person can be asked about: its flow asks them (Redirected).
// One nobody waits on, or met where nobody can be asked, fails its request
// as a redirect refused does, sending nothing there; so does a second move
// met by the handshake a yes led to, which is not worth the question.
void ServerLink::OnRedirect(std::int64_t id, std::string question, std::string target) {
  std::optional<std::uint64_t> tag = connection_.TagOf(id);
  if (!tag || *tag == kMoveHandshakeTag || start_over_ || broken_ || !events_.on_redirect) {
    if (process_) process_->Forget(id);
    return OnRequestFailed(id, alias_ + " was not reached at " + EscapeControlCharacters(target) +
                                   ", where its reply points, so nothing was sent there");
  }
  Spawn([this, id, tag = *tag, question = std::move(question), target = std::move(target)] {
    return Redirected(id, tag, question, target);
  });
}

void ServerLink::ForgetAskedRedirect(std::uint64_t tag) {
  // Closing one ends its flow, which removes it: the next is found first.
  for (auto asked = asked_redirects_.begin(); asked != asked_redirects_.end();) {
    auto here = asked++;
    if (here->tag == tag) here->answer.Close();
  }
}

void ServerLink::AnswerRedirect(std::uint64_t tag, bool yes) {
  auto asked = std::find_if(asked_redirects_.begin(), asked_redirects_.end(),
                            [tag](const AskedRedirect& each) { return each.tag == tag; });
  if (asked == asked_redirects_.end()) return;
  // Its flow runs on from here, and may end what its owner holds the link by.
  std::shared_ptr<ServerLink> keep = shared_from_this();
  asked->answer.Give(yes);
}

void ServerLink::ForgetRequests() {
  connection_.ForgetAll();
  request_timers_.clear();
  EndRedirectFlows();
}

// The start's time runs from when it was asked for: its launch counts.
void ServerLink::ArmStartupTimer() {
  std::weak_ptr<ServerLink> weak = weak_from_this();
  startup_timer_.expires_after(options_.startup_timeout);
  startup_timer_.async_wait([weak](const boost::system::error_code& error) {
    auto self = weak.lock();
    if (error || !self || !self->starting()) return;
    std::string why =
        NoAnswerFault(self->startup_.awaiting(), self->options_.startup_timeout).message;
    if (!self->service_ && (!self->process_ || !self->process_->wrote_output())) {
      why +=
          ", and it wrote nothing on its standard output yet (a runner such as npx that writes "
          "nothing is usually still fetching what it runs)";
    }
    self->StartFailed(self->Failure(StartStep::kTimeout, why));
  });
}

StartFailure ServerLink::Failure(StartStep step, const std::string& why,
                                 std::optional<int> status) const {
  StartFailure failure;
  failure.step = step;
  failure.message = alias_ + " did not start: " + why;
  if (status) failure.message += " (it exited with status " + std::to_string(*status) + ")";
  failure.status = status;
  failure.printed_anything = process_ && process_->wrote_output();
  failure.stderr_tail = stderr_tail();
  return failure;
}

std::vector<std::string> ServerLink::stderr_tail() const {
  return process_ ? process_->stderr_tail() : std::vector<std::string>();
}

void ServerLink::StartFailed(const StartFailure& failure) {
  if (start_over_ || started_) return;
  start_over_ = true;
  startup_timer_.cancel();
  // The start's flow ends where it waits, and so does a question about
  // where its request pointed.
  start_answers_.Close();
  ForgetAskedRedirect(kStartupTag);
  events_.on_start_failed(failure);
  if (process_) process_->Stop();
}

void ServerLink::AbandonStart(const StartFailure& failure) { StartFailed(failure); }

void ServerLink::OnLine(const std::string& line) {
  if (start_over_ || broken_) return;
  auto taken = connection_.Take(line);
  if (auto* fault = std::get_if<McpFault>(&taken)) {
    if (!started_) {
      StartFailed(Failure(StepOf(*fault), fault->message));
    } else {
      broken_ = true;
      events_.on_broken(fault->message);
      process_->Stop();
    }
    return;
  }
  for (McpIncoming& incoming : std::get<0>(taken)) {
    if (start_over_ || broken_) return;
    switch (incoming.kind) {
      case McpIncoming::Kind::kAnswer:
        // The start's and a move's handshake are their flows'.
        if (incoming.tag == kStartupTag) {
          start_answers_.Give(std::move(incoming));
        } else if (incoming.tag == kMoveHandshakeTag) {
          move_answer_.Give(std::move(incoming));
        } else {
          request_timers_.erase(incoming.tag);
          events_.on_answer(std::move(incoming));
        }
        break;
      case McpIncoming::Kind::kSkipped:
        // During its start the start's own time bounds what waits.
        if (started_) EndRequestsFor(incoming);
        if (start_over_ || broken_) return;
        events_.on_message(std::move(incoming));
        break;
      case McpIncoming::Kind::kServerRequest:
      case McpIncoming::Kind::kNotification:
        events_.on_message(std::move(incoming));
        break;
    }
  }
}

void ServerLink::EndRequestsFor(McpIncoming& skipped) {
  const std::string code = std::to_string(skipped.skipped_code) + ", " +
                           std::string(JsonRpcErrorName(skipped.skipped_code));
  const std::string reason = skipped.skipped + " came while bravebot-mcp waited for its answer";
  for (std::int64_t id : connection_.PendingIds()) {
    if (start_over_ || broken_) return;
    std::optional<std::uint64_t> tag = connection_.TagOf(id);
    if (!tag || *tag == kStartupTag || *tag == kMoveHandshakeTag) continue;
    GiveUp(
        id, McpFailureKind::kNotJson, skipped.skipped_code,
        [&](const std::string& what) {
          return "the server wrote " + skipped.skipped + " while bravebot-mcp waited for its " +
                 "answer to " + what + ", so that answer cannot be read (" + code + ")";
        },
        reason);
    ++skipped.requests_ended;
  }
}

void ServerLink::GiveUp(std::int64_t id, McpFailureKind kind, std::int64_t code,
                        const std::function<std::string(const std::string& what)>& words,
                        const std::string& reason) {
  std::optional<McpIncoming> failed = connection_.Fail(id, McpFault{kind, "", code});
  if (!failed) return;
  failed->fault->message = words(failed->what);
  request_timers_.erase(failed->tag);
  ForgetAskedRedirect(failed->tag);
  if (process_) {
    ForgetSent(id);
    Notify("notifications/cancelled", {{"requestId", id}, {"reason", reason}});
  }
  events_.on_answer(std::move(*failed));
}

void ServerLink::ArmRequestTimer(std::uint64_t tag) {
  if (!options_.request_timeout || tag == kStartupTag) return;
  auto& timer = request_timers_[tag];
  timer = std::make_unique<boost::asio::steady_timer>(io_, *options_.request_timeout);
  std::weak_ptr<ServerLink> weak = weak_from_this();
  timer->async_wait([weak, tag](const boost::system::error_code& error) {
    if (auto self = weak.lock(); self && !error) self->RequestTimedOut(tag);
  });
}

void ServerLink::RequestTimedOut(std::uint64_t tag) {
  // The timer is destroyed here, once its handler has been called.
  request_timers_.erase(tag);
  if (start_over_ || broken_) return;
  std::optional<std::int64_t> id = connection_.IdOf(tag);
  if (!id) return;
  const std::string wait = DescribeWait(*options_.request_timeout);
  GiveUp(
      *id, McpFailureKind::kTimedOut, kRequestTimedOutCode,
      [&](const std::string& what) {
        return "the server gave no answer to " + what + " within " + wait +
               ", so it was cancelled (" + std::to_string(kRequestTimedOutCode) +
               ", request timed out)";
      },
      "no answer within " + wait);
}

// Its output closes most often because it ends, and then its end says so.
// One that runs on with its output closed can answer nothing more: it fails
// its start, or is stopped.
void ServerLink::OutputClosed() {
  if (start_over_ || broken_ || stop_asked_) return;
  std::weak_ptr<ServerLink> weak = weak_from_this();
  closed_timer_.expires_after(kEndAfterOutputClosed);
  closed_timer_.async_wait([weak](const boost::system::error_code& error) {
    auto self = weak.lock();
    if (error || !self || !self->process_ || self->process_->ended() || self->start_over_ ||
        self->broken_ || self->stop_asked_) {
      return;
    }
    if (!self->started_) {
      return self->StartFailed(self->Failure(StartStep::kClosed,
                                             "the server closed its standard output before "
                                             "answering " +
                                                 self->startup_.awaiting() + " and did not end"));
    }
    self->broken_ = true;
    self->events_.on_broken("the server closed its standard output" +
                            self->connection_.AwaitedText() +
                            " and did not end, so nothing it answers can be read");
    self->process_->Stop();
  });
}

void ServerLink::OnExit(int status) {
  closed_timer_.cancel();
  if (!started_ && !start_over_) {
    // It ended before it answered: the step is its exit, with its last words.
    StartFailed(Failure(
        StartStep::kExited,
        "the server closed its standard output before answering " + startup_.awaiting(), status));
  } else if (started_ && events_.on_exit) {
    events_.on_exit(status);
  }
  // Nothing it was asked can be answered now.
  EndFlows();
}

bool ServerLink::Request(std::uint64_t tag, const std::string& method,
                         const nlohmann::ordered_json& params, std::string what) {
  if (!process_) return false;
  std::string line = connection_.Request(tag, method, params, std::move(what));
  if (!Send(std::move(line), connection_.IdOf(tag))) {
    connection_.Forget(tag);
    return false;
  }
  ArmRequestTimer(tag);
  return true;
}

bool ServerLink::RequestPassingOn(std::uint64_t tag, const std::string& method,
                                  std::string_view params_text, std::string what) {
  if (!process_) return false;
  std::string line = connection_.RequestPassingOn(tag, method, params_text, std::move(what));
  if (!Send(std::move(line), connection_.IdOf(tag))) {
    connection_.Forget(tag);
    return false;
  }
  ArmRequestTimer(tag);
  return true;
}

bool ServerLink::Notify(const std::string& method, const nlohmann::ordered_json& params) {
  return Send(McpConnection::Notification(method, params));
}

bool ServerLink::Reply(const nlohmann::ordered_json& id, const nlohmann::ordered_json& result) {
  return Send(McpConnection::Reply(id, result));
}

bool ServerLink::ReplyError(const nlohmann::ordered_json& id, const nlohmann::ordered_json& error) {
  return Send(McpConnection::ReplyError(id, error));
}

// While the handshake is made where the service moved, what is written
// waits for it, to go there in the new session: as much as a service has
// under way at once.
bool ServerLink::Send(std::string line, std::optional<std::int64_t> id) {
  if (!process_) return false;
  if (!moving_) return process_->Write(std::move(line));
  if (behind_move_.size() >= HttpChannel::kMaxPostsAtAll) return false;
  behind_move_.push_back(HeldLine{id, std::move(line)});
  return true;
}

void ServerLink::ForgetSent(std::int64_t id) {
  if (process_) process_->Forget(id);
  std::erase_if(behind_move_, [id](const HeldLine& held) { return held.id == id; });
}

void ServerLink::Cancel(std::uint64_t tag, const std::string& reason) {
  request_timers_.erase(tag);
  ForgetAskedRedirect(tag);
  if (std::optional<std::int64_t> sent = connection_.Forget(tag)) {
    ForgetSent(*sent);
    Notify("notifications/cancelled", {{"requestId", *sent}, {"reason", reason}});
  }
}

void ServerLink::Stop(std::function<void(int status)> done) {
  stop_asked_ = true;
  if (opening_) {
    if (done) stopped_.push_back(std::move(done));
    return;
  }
  if (!process_) {
    if (done) boost::asio::post(io_, [done] { done(-1); });
    return;
  }
  process_->Stop(std::move(done));
}

void ServerLink::PauseOutput() {
  output_paused_ = true;
  if (process_) process_->PauseOutput();
}

void ServerLink::ResumeOutput() {
  output_paused_ = false;
  if (process_) process_->ResumeOutput();
}

}  // namespace bravebot
