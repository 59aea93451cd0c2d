#include "supervisor/session/session_server.h"

#include <utility>

#include "base/shown_text.h"

namespace bravebot {

RpcError StartError(const StartFailure& failure) {
  Json data = {{"step", std::string(StartStepWord(failure.step))},
               {"printedAnything", failure.printed_anything},
               {"stderrTail", failure.stderr_tail}};
  if (failure.status) data["status"] = *failure.status;
  return RpcError{kRpcStartFailed, failure.message, std::move(data)};
}

std::string_view ServerEndWord(ServerEnd end) {
  switch (end) {
    case ServerEnd::kExited:
      return "exited";
    case ServerEnd::kStopped:
      return "stopped";
    case ServerEnd::kFailed:
      return "failed";
  }
  return "stopped";
}

std::string NamedFor(const std::string& alias, const std::string& sentence) {
  return sentence.starts_with("the server ") ? alias + sentence.substr(10) : sentence;
}

RpcError ServerGone(std::string message) {
  return RpcError{kRpcServerGone, std::move(message), Json{{"status", nullptr}}};
}

bool SessionServer::Startable() const {
  return life_ == ServerLife::kNotStarted ||
         (life_ == ServerLife::kEnded && link_ && link_->session_ended());
}

void SessionServer::Starting(const Json& id, std::shared_ptr<ServerLink> link) {
  // Started again after a service ended its MCP session: nothing of the
  // first start holds.
  status_.reset();
  end_.reset();
  ended_on_request_ = false;
  life_ = ServerLife::kStarting;
  start_id_ = id;
  replies_.Await(id, alias(), 0);
  link_ = std::move(link);
}

void SessionServer::StartRefused() {
  life_ = ServerLife::kEnded;
  end_ = ServerEnd::kFailed;
}

Json SessionServer::Running() {
  life_ = ServerLife::kRunning;
  return TakeStartId();
}

Json SessionServer::TakeStartId() {
  if (!start_id_.is_null()) replies_.Forget(start_id_);
  return std::exchange(start_id_, nullptr);
}

void SessionServer::PutStartId(const Json& id) {
  start_id_ = id;
  replies_.Await(id, alias(), 0);
}

void SessionServer::AnswerStart(const RpcError& error) {
  if (start_id_.is_null()) return;
  replies_.RespondError(TakeStartId(), error);
}

void SessionServer::StopStarting(const RpcError& answer, const std::string& why) {
  AnswerStart(answer);
  link_->AbandonStart(link_->Failure(StartStep::kStopped, why));
}

void SessionServer::StartFailed(StartStep step, const RpcError& answer) {
  // Stopped by the session (server/stop, a cancel, its close), or failed.
  end_ = step == StartStep::kStopped ? ServerEnd::kStopped : ServerEnd::kFailed;
  ended_on_request_ = true;
  AnswerStart(answer);
  life_ = ServerLife::kStopping;
  link_->Stop([this](int status) { Ended(status); });
}

void SessionServer::Await(std::uint64_t tag, const Json& id) {
  requests_[tag] = id;
  replies_.Await(id, alias(), tag);
}

void SessionServer::AwaitCall(std::uint64_t tag, const Json& id, ToolCall call) {
  Await(tag, id);
  tool_calls_[tag] = std::move(call);
}

std::optional<Json> SessionServer::TakeWaiting(std::uint64_t tag) {
  auto waiting = requests_.find(tag);
  if (waiting == requests_.end()) return std::nullopt;
  Json id = std::move(waiting->second);
  requests_.erase(waiting);
  replies_.Forget(id);
  return id;
}

std::optional<SessionServer::ToolCall> SessionServer::TakeToolCall(std::uint64_t tag) {
  auto call = tool_calls_.find(tag);
  if (call == tool_calls_.end()) return std::nullopt;
  ToolCall taken = std::move(call->second);
  tool_calls_.erase(call);
  return taken;
}

void SessionServer::AnswerWaiting(const RpcError& error) {
  if (link_) link_->ForgetRequests();
  list_reading.reset();
  auto requests = std::exchange(requests_, {});
  auto tool_calls = std::exchange(tool_calls_, {});
  for (auto& [tag, id] : requests) {
    replies_.Forget(id);
    auto call = tool_calls.find(tag);
    if (call == tool_calls.end()) {
      replies_.RespondError(id, error);
      continue;
    }
    RpcError failed = error;
    failed.message =
        alias() + ":" + EscapeControlCharacters(call->second.tool) + " failed: " + error.message;
    if (!failed.data.is_object()) failed.data = Json::object();
    failed.data["tool"] = call->second.tool;
    failed.data["method"] = "tools/call";
    replies_.RespondError(id, failed);
  }
}

void SessionServer::Broken(const std::string& why) {
  if (life_ != ServerLife::kRunning) return;
  SessionReplies::Log(why);
  life_ = ServerLife::kStopping;
  end_ = ServerEnd::kFailed;
  AnswerWaiting(RpcError{kRpcServerFailed, why, nullptr});
}

void SessionServer::StopRunning(const RpcError& why) {
  ended_on_request_ = true;
  life_ = ServerLife::kStopping;
  end_ = ServerEnd::kStopped;
  AnswerWaiting(why);
}

void SessionServer::AnswerAtEnd(const Json& id) {
  stop_ids_.push_back(id);
  replies_.Await(id, alias(), 0);
}

void SessionServer::Exited(int status) {
  if (!ended_on_request_) {
    if (!end_) end_ = ServerEnd::kExited;
    AnswerWaiting(
        RpcError{kRpcServerGone,
                 alias() + " exited with status " + std::to_string(status) + " before answering",
                 Json{{"status", status}}});
    // Reported, and never started again without the session asking.
    replies_.Notify("server/exited",
                    {{"alias", alias()}, {"status", status}, {"stderrTail", link_->stderr_tail()}});
  }
  Ended(status);
}

void SessionServer::Ended(int status) {
  if (life_ == ServerLife::kEnded) return;
  life_ = ServerLife::kEnded;
  // -1: it never ran (its start was refused before anything was started).
  if (status >= 0) status_ = status;
  if (!end_) end_ = ServerEnd::kStopped;
  // Requests it left unanswered can be answered no more.
  server_requests_.ForgetAllOf(alias());
  for (const Json& id : std::exchange(stop_ids_, {})) {
    replies_.Forget(id);
    replies_.Respond(id, {{"status", status_ ? Json(*status_) : Json()}});
  }
}

std::optional<std::size_t> SessionServer::SayNotAMessage(bool requests_ended) {
  // A server that writes such lines without end writes no log without end.
  const auto now = std::chrono::steady_clock::now();
  if (!requests_ended && not_a_message_said_at_.time_since_epoch().count() != 0 &&
      now - not_a_message_said_at_ < std::chrono::seconds(1)) {
    ++not_a_message_unsaid_;
    return std::nullopt;
  }
  not_a_message_said_at_ = now;
  return std::exchange(not_a_message_unsaid_, 0);
}

}  // namespace bravebot
