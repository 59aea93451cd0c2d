// ServerLink's two flows, each a coroutine on the loop that reads as the
// protocol goes: the start, and a service's redirect. What they wait for is
// handed to them by the link's callbacks (server_link.cc); whatever ends
// them otherwise closes what they wait on, and they return there.
#include <boost/asio/co_spawn.hpp>
#include <exception>
#include <utility>

#include "base/shown_text.h"
#include "supervisor/servers/server_link.h"

namespace bravebot {

void ServerLink::Spawn(std::function<boost::asio::awaitable<void>()> flow) {
  boost::asio::co_spawn(
      io_,
      // From outside the loop it runs once the loop does: a link gone by
      // then is not run. Once it waits, it waits on the link's own
      // AwaitedEvents, and goes with them.
      [weak = weak_from_this(), flow = std::move(flow)]() -> boost::asio::awaitable<void> {
        if (weak.expired()) co_return;
        co_await flow();
      },
      [](const std::exception_ptr& error) {
        if (error) std::rethrow_exception(error);
      });
}

// The start: its channel opened, then the handshake and its whole tool list,
// within the start's time (ArmStartupTimer). Anything that fails it on the
// way (the server's end, a line no MCP server writes, its time out, a start
// given up) says so through StartFailed, which closes start_answers_.
boost::asio::awaitable<void> ServerLink::Starting() {
  // Its channel: a confined process launched, or a service's HTTP.
  std::optional<Result<std::shared_ptr<ServerChannel>>> opened = co_await opened_.Next();
  if (!opened) co_return;
  if (!*opened) {
    StartFailed(OpenFailure(opened->error()));
    // Nothing runs: whoever waits for its end has it now.
    for (auto& done : std::exchange(stopped_, {})) done(-1);
    co_return;
  }
  process_ = std::move(**opened);
  if (events_.on_launched) events_.on_launched();
  // Given up on, or stopped, while its channel was opened. A service was
  // sent nothing yet: it never ran, as a program that was never launched.
  if ((start_over_ || stop_asked_) && service_) {
    start_over_ = true;  // its channel's end says nothing of a start
    process_->Stop();
    for (auto& done : std::exchange(stopped_, {})) done(-1);
    co_return;
  }
  if (start_over_ || stop_asked_) {
    for (auto& done : std::exchange(stopped_, {})) process_->Stop(std::move(done));
    process_->Stop();
    co_return;
  }
  if (output_paused_) process_->PauseOutput();

  // initialize, notifications/initialized, then tools/list page by page
  // (McpStartup says what each answer calls for).
  process_->Write(startup_.Begin());
  for (;;) {
    std::optional<McpIncoming> answer = co_await start_answers_.Next();
    if (!answer) co_return;
    McpStartup::Step step = startup_.Take(std::move(*answer));
    if (step.fault) {
      StartFailed(Failure(StepOf(*step.fault), step.fault->message));
      co_return;
    }
    for (std::string& next : step.lines) process_->Write(std::move(next));
    if (step.done) break;
  }
  started_ = true;
  startup_timer_.cancel();
  events_.on_started();
}

// A service's answer to the request `id` (under `tag`) pointed elsewhere,
// and a person can be asked whether it moved there: nothing was sent there,
// and the channel holds the request. On a yes every request goes there from
// now on, the handshake made there first where one was made where it was
// (another place is another service, which knows nothing of the session
// made here); on a no the request fails. Its question ends unanswered
// where the request ends otherwise (given up, cancelled, failed, the
// server's end): the flow ends with it, sending nothing.
boost::asio::awaitable<void> ServerLink::Redirected(std::int64_t id, std::uint64_t tag,
                                                    std::string question, std::string target) {
  // A person takes their time: the start's time, or the request's, starts
  // again at the answer.
  if (tag == kStartupTag) startup_timer_.cancel();
  request_timers_.erase(tag);
  ForgetAskedRedirect(tag);
  auto asked = asked_redirects_.insert(asked_redirects_.end(), AskedRedirect{tag, target, {}});
  events_.on_redirect(tag, std::move(question), target);
  std::optional<bool> yes = co_await asked->answer.Next();
  asked_redirects_.erase(asked);
  if (!yes) co_return;

  if (!*yes) {
    process_->Forget(id);
    OnRequestFailed(id, alias_ + " was not reached at " + EscapeControlCharacters(target) +
                            ", where its reply points: you said no, so nothing was sent there "
                            "and it stays declared where it was");
    co_return;
  }
  if (moving_) {
    // One move at a time: where requests go is being settled already.
    process_->Forget(id);
    OnRequestFailed(id, alias_ + " was not sent there: it is being moved to " +
                            EscapeControlCharacters(move_target_) + " already");
    co_return;
  }
  moved_to_ = target;
  RestartTimers(tag);
  process_->Move(id);
  if (HandshakeMade()) {
    bool ended = false;
    std::optional<Error> failed = co_await ShakeHandsAt(target, ended);
    if (ended) co_return;
    if (failed) {
      MoveFailed(id, target, *failed);
      co_return;
    }
  }
  // The request that met the move goes there, then what waited behind the
  // handshake, in the order written.
  process_->SendHeld(id);
  for (HeldLine& held : std::exchange(behind_move_, {})) {
    if (process_->Write(std::move(held.line)) || !held.id) continue;
    OnRequestFailed(*held.id, alias_ + " was not sent there: too many requests were under way");
  }
  // Where the person said yes: a redirect within that place, met by the
  // handshake there, was followed, and is not what they were shown. A
  // start's move is read from moved_to() once it has started.
  if (started_ && events_.on_moved) events_.on_moved(target);
}

// The same initialize as at the start, then notifications/initialized,
// within kMoveHandshakeTimeout. What is written meanwhile waits (Send).
boost::asio::awaitable<std::optional<Error>> ServerLink::ShakeHandsAt(const std::string& target,
                                                                      bool& ended) {
  moving_ = true;
  move_target_ = target;
  move_answer_ = AwaitedEvents<Result<McpIncoming>>();
  process_->Write(connection_.RequestAs(kMoveHandshakeId, kMoveHandshakeTag, "initialize",
                                        InitializeParams(options_.capabilities)));
  std::weak_ptr<ServerLink> weak = weak_from_this();
  move_timer_.expires_after(kMoveHandshakeTimeout);
  move_timer_.async_wait([weak](const boost::system::error_code& error) {
    auto self = weak.lock();
    if (error || !self || !self->connection_.Forget(kMoveHandshakeTag)) return;
    self->process_->Forget(kMoveHandshakeId);
    self->move_answer_.Give(
        Error(ErrorCode::kRefused, "no answer from " + self->alias_ + " within " +
                                       std::to_string(kMoveHandshakeTimeout.count()) + " s"));
  });
  std::optional<Result<McpIncoming>> answer = co_await move_answer_.Next();
  move_timer_.cancel();
  moving_ = false;
  if (!answer) {
    // The link ended, or forgot every request: nothing waits any more.
    ended = true;
    behind_move_.clear();
    co_return std::nullopt;
  }
  if (!*answer) co_return answer->error();
  if ((*answer)->fault || !(*answer)->result.is_object()) {
    co_return Error(ErrorCode::kRefused, "its answer to initialize held no result");
  }
  process_->Write(McpConnection::Notification("notifications/initialized", nullptr));
  co_return std::nullopt;
}

// Nothing can be asked of the service there, nor where it was, whose
// session is given up: like a session the service ended, this ends what the
// link can do, and what waited for the handshake fails in the same words.
void ServerLink::MoveFailed(std::int64_t id, const std::string& target, const Error& why) {
  const bool sign_in = why.code() == ErrorCode::kSignInNeeded;
  // The service is there, and only wants a sign-in the person makes: the
  // yes stands, and the move is kept as a handshake there would keep it.
  const std::string failed =
      alias_ + " moved to " + EscapeControlCharacters(target) +
      (sign_in ? ", kept by your yes, where " : ", and its handshake there failed: ") +
      why.message();
  std::shared_ptr<ServerLink> keep = shared_from_this();
  process_->Forget(id);
  OnRequestFailed(id, Error(why.code(), failed));
  for (const HeldLine& held : std::exchange(behind_move_, {})) {
    if (held.id) OnRequestFailed(*held.id, Error(why.code(), failed));
  }
  OnSessionEnded(failed);
  // A start's move is read from moved_to() where the start fails.
  if (sign_in && started_ && events_.on_moved) events_.on_moved(target);
}

void ServerLink::RestartTimers(std::uint64_t tag) {
  if (tag == kStartupTag && starting()) ArmStartupTimer();
  ArmRequestTimer(tag);
}

void ServerLink::EndFlows() {
  start_answers_.Close();
  EndRedirectFlows();
}

void ServerLink::EndRedirectFlows() {
  // Closing a question ends its flow, which removes it: the next is found
  // first.
  for (auto asked = asked_redirects_.begin(); asked != asked_redirects_.end();) {
    (asked++)->answer.Close();
  }
  move_answer_.Close();
  behind_move_.clear();
}

}  // namespace bravebot
