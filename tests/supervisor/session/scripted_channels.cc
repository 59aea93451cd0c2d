#include "tests/supervisor/session/scripted_channels.h"

#include <boost/asio/post.hpp>
#include <deque>
#include <utility>

#include "supervisor/policy/redirect_decision.h"

namespace bravebot::testing {
namespace {

using Json = ScriptedServer::Json;

Json Answer(const Json& id, Json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

std::string MethodOf(const Json& message) {
  auto method = message.find("method");
  return method != message.end() && method->is_string() ? method->get<std::string>() : "";
}

}  // namespace

// One open channel to a scripted server: a program's pipes or a service's
// HTTP exchanges, as the supervisor's link sees them.
class ScriptedChannel : public ServerChannel, public std::enable_shared_from_this<ScriptedChannel> {
 public:
  ScriptedChannel(boost::asio::io_context& io, ScriptedServer& server,
                  const Declaration& declaration, const ChannelSettings& settings,
                  ChannelEvents events)
      : io_(io),
        server_(server),
        service_(declaration.transport == Transport::kHttp),
        declared_url_(declaration.url),
        url_(declaration.url),
        asking_(settings.asking),
        events_(std::move(events)) {}

  bool Write(std::string line) override {
    if (stopping_ || ended_) return false;
    Json message = Json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (message.is_discarded()) message = line;  // recorded all the same
    server_.received_.push_back({Place(), message});
    if (RedirectMet(message, MethodOf(message))) return true;
    AnswerOrHold(message);
    return true;
  }

  void PauseOutput() override { paused_ = true; }
  void ResumeOutput() override {
    paused_ = false;
    Later([](ScriptedChannel& self) { self.Flush(); });
  }

  void Stop(std::function<void(int status)> done) override {
    if (ended_) {
      if (done) Later([done](ScriptedChannel& self) { done(self.status_); });
      return;
    }
    if (done) stopped_.push_back(std::move(done));
    if (stopping_) return;
    stopping_ = true;
    held_.clear();
    // A program ends as its input closes; a service as its session does.
    const int status = service_ ? 0 : server_.stop_status;
    Later([status](ScriptedChannel& self) { self.End(status); });
  }

  bool ended() const override { return ended_; }
  bool wrote_output() const override { return wrote_output_; }
  std::vector<std::string> stderr_tail() const override { return stderr_tail_; }
  // No process runs: none is given, so nothing could ever signal one.
  pid_t pid() const override { return -1; }
  std::string run_directory() const override { return ""; }
  void Forget(std::int64_t id) override { held_.erase(id); }

  // As HttpChannel's: a yes sends every later request where the redirect
  // pointed, and the request that met it once its link says so (after the
  // handshake it makes there).
  void Move(std::int64_t id) override {
    auto held = held_.find(id);
    if (held == held_.end() || stopping_) return;
    url_ = held->second.target;
  }
  void SendHeld(std::int64_t id) override {
    auto held = held_.find(id);
    if (held == held_.end() || stopping_) return;
    Json message = std::move(held->second.message);
    held_.erase(held);
    server_.received_.push_back({Place(), message});
    AnswerOrHold(message);
  }

  // --- What the test makes it do.

  void Say(std::string line) {
    Later(
        [line = std::move(line)](ScriptedChannel& self) mutable { self.Deliver(std::move(line)); });
  }
  void SayOnStderr(std::string line) {
    stderr_tail_.push_back(line);
    Later([line = std::move(line)](ScriptedChannel& self) mutable {
      if (self.events_.on_stderr_line) self.events_.on_stderr_line(std::move(line));
    });
  }
  void CloseOutput() {
    Later([](ScriptedChannel& self) {
      if (self.output_closed_ || self.ended_) return;
      self.output_closed_ = true;
      if (self.events_.on_output_closed) self.events_.on_output_closed();
    });
  }
  void Exit(int status) {
    Later([status](ScriptedChannel& self) { self.End(status); });
  }
  void Release() {
    for (const Json& message : std::exchange(answers_held_, {})) Answer(message);
  }

 private:
  struct Held {
    Json message;
    std::string target;
  };

  std::string Place() const { return service_ ? url_ : ScriptedServer::kProcess; }

  // `then` from the loop, while this channel lives.
  void Later(std::function<void(ScriptedChannel& self)> then) {
    boost::asio::post(io_, [weak = weak_from_this(), then = std::move(then)] {
      if (auto self = weak.lock()) then(*self);
    });
  }

  // A service's request the script redirects: held for the person's answer,
  // refused, or followed within one place, as DecideRedirect says.
  bool RedirectMet(const Json& message, const std::string& method) {
    if (!service_ || server_.redirect_to.empty() || method != server_.redirect_method ||
        url_ == server_.redirect_to || !message.contains("id") ||
        !message["id"].is_number_integer()) {
      return false;
    }
    const std::int64_t id = message["id"].get<std::int64_t>();
    Redirect redirect;
    redirect.alias = server_.alias();
    redirect.declared_url = declared_url_;
    redirect.request_url = url_;
    redirect.method = "POST";
    redirect.status = 307;
    redirect.target = server_.redirect_to;
    redirect.asking = asking_;
    RedirectDecision decision = DecideRedirect(redirect, ManagedPolicy());
    switch (decision.action) {
      case RedirectAction::kFollow:
        return false;  // within one place: answered there as anywhere
      case RedirectAction::kAsk:
        held_[id] = Held{message, decision.url};
        Later([id, question = decision.question, target = decision.url](ScriptedChannel& self) {
          if (self.events_.on_redirect) self.events_.on_redirect(id, question, target);
        });
        return true;
      case RedirectAction::kRefuse:
        Later([id, why = decision.reason](ScriptedChannel& self) {
          if (self.events_.on_request_failed) {
            self.events_.on_request_failed(id, Error(ErrorCode::kRefused, why));
          }
        });
        return true;
    }
    return false;
  }

  void AnswerOrHold(const Json& message) {
    if (server_.hold && server_.hold(message)) {
      answers_held_.push_back(message);
      return;
    }
    Answer(message);
  }

  void Answer(const Json& message) {
    std::optional<std::vector<std::string>> lines;
    if (server_.script) lines = server_.script(message);
    if (!lines) lines = server_.StandardAnswer(message);
    for (std::string& line : *lines) Say(std::move(line));
  }

  void Deliver(std::string line) {
    if (ended_ || output_closed_) return;
    if (paused_) {
      waiting_.push_back(std::move(line));
      return;
    }
    wrote_output_ = true;
    if (events_.on_line) events_.on_line(std::move(line));
  }

  void Flush() {
    while (!paused_ && !waiting_.empty() && !ended_) {
      std::string line = std::move(waiting_.front());
      waiting_.pop_front();
      wrote_output_ = true;
      if (events_.on_line) events_.on_line(std::move(line));
    }
  }

  // Its end: what it wrote last comes first, as a process's pipes are read
  // to their end before its exit is told.
  void End(int status) {
    if (ended_) return;
    paused_ = false;
    Flush();
    ended_ = true;
    status_ = status;
    held_.clear();
    if (events_.on_exit) events_.on_exit(status);
    for (auto& done : std::exchange(stopped_, {})) done(status);
  }

  boost::asio::io_context& io_;
  ScriptedServer& server_;
  const bool service_;
  const std::string declared_url_;
  std::string url_;  // where requests go: where it is declared, or moved to
  const Asking asking_;
  ChannelEvents events_;
  std::map<std::int64_t, Held> held_;  // requests whose redirect waits for the person
  std::vector<Json> answers_held_;     // what ScriptedServer::hold holds back
  std::deque<std::string> waiting_;    // lines said while its output is paused
  std::vector<std::string> stderr_tail_;
  std::vector<std::function<void(int status)>> stopped_;
  bool paused_ = false;
  bool output_closed_ = false;
  bool wrote_output_ = false;
  bool stopping_ = false;
  bool ended_ = false;
  int status_ = 0;
};

// --- ScriptedServer.

std::vector<std::string> ScriptedServer::StandardAnswer(const Json& message) const {
  const std::string method = MethodOf(message);
  // A reply to a request of its own, or a notification: nothing to answer.
  if (!message.is_object() || method.empty() || !message.contains("id")) return {};
  const Json& id = message["id"];
  const Json params = message.contains("params") ? message["params"] : Json::object();
  if (method == "initialize") {
    return {Answer(id, {{"protocolVersion", protocol_version},
                        {"capabilities", capabilities},
                        {"serverInfo", server_info}})
                .dump()};
  }
  if (method == "tools/list") {
    std::size_t first = 0;
    if (params.contains("cursor") && params["cursor"].is_string()) {
      first = std::stoul(params["cursor"].get<std::string>());
    }
    const std::size_t size = page_size == 0 ? tools.size() : page_size;
    const std::size_t end = std::min(tools.size(), first + size);
    Json result = {{"tools", Json(std::vector<Json>(tools.begin() + static_cast<long>(first),
                                                    tools.begin() + static_cast<long>(end)))}};
    if (end < tools.size()) result["nextCursor"] = std::to_string(end);
    return {Answer(id, std::move(result)).dump()};
  }
  if (method == "tools/call") {
    const std::string tool = params.value("name", "");
    const Json arguments = params.contains("arguments") ? params["arguments"] : Json::object();
    std::optional<Json> result =
        call ? call(tool, arguments)
             : Json{{"content", {{{"type", "text"}, {"text", arguments.dump()}}}},
                    {"isError", false}};
    if (!result) return {};
    return {Answer(id, std::move(*result)).dump()};
  }
  if (method == "ping") return {Answer(id, Json::object()).dump()};
  return {Json{{"jsonrpc", "2.0"},
               {"id", id},
               {"error", {{"code", -32601}, {"message", "Method not found"}}}}
              .dump()};
}

bool ScriptedServer::Send(const Json& message) { return SendLine(message.dump()); }

bool ScriptedServer::SendLine(std::string line) {
  auto channel = channel_.lock();
  if (!channel) return false;
  channel->Say(std::move(line));
  return true;
}

bool ScriptedServer::WriteStderr(std::string line) {
  auto channel = channel_.lock();
  if (!channel) return false;
  channel->SayOnStderr(std::move(line));
  return true;
}

bool ScriptedServer::CloseOutput() {
  auto channel = channel_.lock();
  if (!channel) return false;
  channel->CloseOutput();
  return true;
}

bool ScriptedServer::Release() {
  auto channel = channel_.lock();
  if (!channel) return false;
  channel->Release();
  return true;
}

bool ScriptedServer::Exit(int status) {
  auto channel = channel_.lock();
  if (!channel) return false;
  channel->Exit(status);
  return true;
}

bool ScriptedServer::ended() const {
  auto channel = channel_.lock();
  return !channel || channel->ended();
}

std::vector<ScriptedServer::Json> ScriptedServer::Received(const std::string& method) const {
  std::vector<Json> found;
  for (const Line& line : received_) {
    if (line.message.is_object() && MethodOf(line.message) == method) {
      found.push_back(line.message);
    }
  }
  return found;
}

std::vector<ScriptedServer::Json> ScriptedServer::ReceivedAt(const std::string& place,
                                                             const std::string& method) const {
  std::vector<Json> found;
  for (const Line& line : received_) {
    if (line.place == place && line.message.is_object() && MethodOf(line.message) == method) {
      found.push_back(line.message);
    }
  }
  return found;
}

// --- ScriptedChannels.

ScriptedServer& ScriptedChannels::Script(const std::string& alias) {
  auto& server = servers_[alias];
  if (!server) server = std::make_shared<ScriptedServer>(alias);
  return *server;
}

ChannelFactory::Abandon ScriptedChannels::Open(boost::asio::io_context& io,
                                               const Declaration& declaration,
                                               const ServerStartOptions& /*options*/,
                                               const ChannelSettings& settings,
                                               ChannelEvents events, Opened opened) const {
  auto found = servers_.find(declaration.alias);
  std::shared_ptr<ScriptedServer> server = found == servers_.end() ? nullptr : found->second;
  if (server) ++server->opens_;
  auto abandoned = std::make_shared<bool>(false);
  boost::asio::post(io, [&io, abandoned, server, declaration, settings, events = std::move(events),
                         opened = std::move(opened)]() mutable {
    if (*abandoned) return;
    if (!server) {
      return opened(Error(ErrorCode::kNotFound,
                          declaration.alias + " has no script in this test, so nothing was run"));
    }
    if (server->open_error) return opened(*server->open_error);
    auto channel =
        std::make_shared<ScriptedChannel>(io, *server, declaration, settings, std::move(events));
    server->channel_ = channel;
    opened(std::shared_ptr<ServerChannel>(channel));
  });
  return [abandoned] { *abandoned = true; };
}

}  // namespace bravebot::testing
