#include "supervisor/servers/server_link.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <utility>
#include <variant>

#include "supervisor/servers/http_channel.h"

namespace bravebot {
namespace {

constexpr std::uint64_t kStartupTag = 0;

// The step a failed handshake names.
StartStep StepOf(const McpFault& fault) {
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

}  // namespace

ServerLink::ServerLink(boost::asio::io_context& io, std::string alias, Options options,
                       LinkEvents events)
    : io_(io),
      alias_(std::move(alias)),
      options_(std::move(options)),
      events_(std::move(events)),
      startup_(connection_, kStartupTag, options_.capabilities),
      startup_timer_(io),
      closed_timer_(io) {}

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
  ChannelEvents events;
  events.on_line = [weak](std::string line) {
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
  events.on_request_failed = [weak](std::int64_t id, std::string why) {
    if (auto self = weak.lock()) self->OnRequestFailed(id, why);
  };
  events.on_redirect = [weak](std::int64_t id, std::string question, std::string target) {
    if (auto self = weak.lock()) self->OnRedirect(id, std::move(question), std::move(target));
  };
  events.on_session_ended = [weak](std::string why) {
    if (auto self = weak.lock()) self->OnSessionEnded(why);
  };
  events.on_moved = [weak](const std::string& url) {
    auto self = weak.lock();
    if (!self) return;
    // Where it is now, whatever yes was said since to another move.
    self->moved_to_ = url;
    if (self->started_ && self->events_.on_moved) self->events_.on_moved(url);
  };

  ArmStartupTimer();
  ChannelSettings settings{alias_, options_.asking, options_.launch_on};
  opening_ = true;
  abandon_open_ = options_.channels->Open(io_, declaration, options, settings, std::move(events),
                                          [weak](Result<std::shared_ptr<ServerChannel>> channel) {
                                            if (auto self = weak.lock()) {
                                              self->Opened(std::move(channel));
                                            } else if (channel) {
                                              (*channel)->Stop();
                                            }
                                          });
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
void ServerLink::OnRequestFailed(std::int64_t id, const std::string& why) {
  if (start_over_ || broken_) return;
  std::optional<McpIncoming> failed =
      connection_.Fail(id, McpFault{McpFailureKind::kMalformed, why, std::nullopt});
  if (!failed) return;
  request_timers_.erase(failed->tag);
  ForgetAskedRedirect(failed->tag);
  if (failed->tag == kStartupTag) {
    if (!started_) StartFailed(Failure(StartStep::kUnreachable, why));
    return;
  }
  events_.on_answer(std::move(*failed));
}

void ServerLink::OnRedirect(std::int64_t id, std::string question, std::string target) {
  std::optional<std::uint64_t> tag = connection_.TagOf(id);
  if (!tag || start_over_ || broken_ || !events_.on_redirect) {
    if (process_) process_->AnswerRedirect(id, false);
    return;
  }
  // A person takes their time: the start's time, or the request's, starts
  // again at the answer.
  if (*tag == kStartupTag) startup_timer_.cancel();
  request_timers_.erase(*tag);
  ForgetAskedRedirect(*tag);
  asked_redirects_.emplace_back(*tag, target);
  events_.on_redirect(*tag, std::move(question), std::move(target));
}

void ServerLink::ForgetAskedRedirect(std::uint64_t tag) {
  std::erase_if(asked_redirects_, [tag](const auto& asked) { return asked.first == tag; });
}

void ServerLink::AnswerRedirect(std::uint64_t tag, bool yes) {
  auto asked = std::find_if(asked_redirects_.begin(), asked_redirects_.end(),
                            [tag](const auto& each) { return each.first == tag; });
  if (asked == asked_redirects_.end()) return;
  if (yes) moved_to_ = asked->second;
  asked_redirects_.erase(asked);
  std::optional<std::int64_t> id = connection_.IdOf(tag);
  if (!id || !process_) return;
  if (tag == kStartupTag && !started_ && !start_over_) ArmStartupTimer();
  ArmRequestTimer(tag);
  process_->AnswerRedirect(*id, yes);
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

void ServerLink::Opened(Result<std::shared_ptr<ServerChannel>> channel) {
  opening_ = false;
  abandon_open_ = nullptr;
  if (!channel) {
    const Error& error = channel.error();
    // A refusal at its start names the server already, and is said as it is.
    StartFailure failure;
    if (error.code() == ErrorCode::kNotStarted) {
      failure = Failure(StartStep::kRefused, "");
      failure.message = error.message();
    } else {
      failure = Failure(
          error.code() == ErrorCode::kNotFound ? StartStep::kNotFound : StartStep::kConfinement,
          error.message());
    }
    StartFailed(std::move(failure));
    // Nothing runs: whoever waits for its end has it now.
    for (auto& done : std::exchange(stopped_, {})) done(-1);
    return;
  }
  process_ = std::move(*channel);
  if (events_.on_launched) events_.on_launched();
  // Given up on, or stopped, while its channel was opened. A service was
  // sent nothing yet: it never ran, as a program that was never launched.
  if ((start_over_ || stop_asked_) && service_) {
    start_over_ = true;  // its channel's end says nothing of a start
    process_->Stop();
    for (auto& done : std::exchange(stopped_, {})) done(-1);
    return;
  }
  if (start_over_ || stop_asked_) {
    for (auto& done : std::exchange(stopped_, {})) process_->Stop(std::move(done));
    process_->Stop();
    return;
  }
  if (output_paused_) process_->PauseOutput();
  process_->Write(startup_.Begin());
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

void ServerLink::StartFailed(StartFailure failure) {
  if (start_over_ || started_) return;
  start_over_ = true;
  startup_timer_.cancel();
  events_.on_start_failed(failure);
  if (process_) process_->Stop();
}

void ServerLink::AbandonStart(StartFailure failure) { StartFailed(std::move(failure)); }

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
        if (incoming.tag != kStartupTag) {
          request_timers_.erase(incoming.tag);
          events_.on_answer(std::move(incoming));
          break;
        }
        if (McpStartup::Step step = startup_.Take(std::move(incoming)); step.fault) {
          StartFailed(Failure(StepOf(*step.fault), step.fault->message));
        } else {
          for (std::string& next : step.lines) process_->Write(std::move(next));
          if (step.done) {
            started_ = true;
            startup_timer_.cancel();
            events_.on_started();
          }
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
    if (!tag || *tag == kStartupTag) continue;
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
    process_->Forget(id);
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
    return;
  }
  if (started_ && events_.on_exit) events_.on_exit(status);
}

bool ServerLink::Request(std::uint64_t tag, const std::string& method,
                         const nlohmann::ordered_json& params, std::string what) {
  if (!process_ || !process_->Write(connection_.Request(tag, method, params, std::move(what)))) {
    connection_.Forget(tag);
    return false;
  }
  ArmRequestTimer(tag);
  return true;
}

bool ServerLink::RequestPassingOn(std::uint64_t tag, const std::string& method,
                                  std::string_view params_text, std::string what) {
  if (!process_ ||
      !process_->Write(connection_.RequestPassingOn(tag, method, params_text, std::move(what)))) {
    connection_.Forget(tag);
    return false;
  }
  ArmRequestTimer(tag);
  return true;
}

bool ServerLink::Notify(const std::string& method, const nlohmann::ordered_json& params) {
  return process_ && process_->Write(McpConnection::Notification(method, params));
}

bool ServerLink::Reply(const nlohmann::ordered_json& id, const nlohmann::ordered_json& result) {
  return process_ && process_->Write(McpConnection::Reply(id, result));
}

bool ServerLink::ReplyError(const nlohmann::ordered_json& id, const nlohmann::ordered_json& error) {
  return process_ && process_->Write(McpConnection::ReplyError(id, error));
}

void ServerLink::Cancel(std::uint64_t tag, const std::string& reason) {
  request_timers_.erase(tag);
  ForgetAskedRedirect(tag);
  if (std::optional<std::int64_t> sent = connection_.Forget(tag)) {
    if (process_) process_->Forget(*sent);
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
