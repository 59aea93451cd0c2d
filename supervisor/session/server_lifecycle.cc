#include "supervisor/session/server_lifecycle.h"

#include <boost/asio/post.hpp>
#include <memory>
#include <utility>

#include "confine/digest.h"
#include "supervisor/store/standing_answers.h"

namespace bravebot {

void ServerLifecycle::Answer(const Json& id, RpcParams params) {
  std::optional<std::string> alias = params.String("alias");
  std::optional<std::string> answer = params.String("answer");
  if (params.problem()) return session_.replies.RespondError(id, *params.problem());
  SessionServer* server = session_.Find(id, *alias);
  if (server == nullptr) return;
  OpenedServer& opened = server->opened();
  if (opened.state != ServerState::kAsk) {
    return session_.replies.RespondError(
        id, Refusal(kRpcWrongState,
                    *alias + " has no question waiting: its state is " + StateWord(opened.state)));
  }
  // Anything else typed, and nothing, is 3.
  const bool yes = *answer == "1" || *answer == "2";
  if (!yes) {
    opened.state = ServerState::kLeftOut;
    opened.reason = *alias + " is not used in this session: the answer was 3";
    return session_.replies.Respond(id, {{"state", "left-out"}, {"reason", opened.reason}});
  }
  // Incognito records nothing: the yes starts it for this session only.
  if (!session_.settings->incognito && session_.session->profile) {
    Status recorded = RecordServerAnswer(*session_.session->profile, *opened.declaration,
                                         *answer == "2", session_.settings->directory);
    if (!recorded) {
      opened.state = ServerState::kLeftOut;
      opened.reason = *alias + " was not started: " + recorded.error().message();
      return session_.replies.Respond(id, {{"state", "left-out"}, {"reason", opened.reason}});
    }
  }
  opened.state = ServerState::kStart;
  session_.replies.Respond(id, {{"state", "start"}});
}

void ServerLifecycle::Start(const Json& id, RpcParams params) {
  std::optional<std::string> alias = params.String("alias");
  if (params.problem()) return session_.replies.RespondError(id, *params.problem());
  SessionServer* server = session_.Find(id, *alias);
  if (server == nullptr) return;
  const OpenedServer& opened = server->opened();
  if (opened.state != ServerState::kStart) {
    return session_.replies.RespondError(
        id,
        Refusal(kRpcWrongState,
                *alias + " is not to be started: its state is " + StateWord(opened.state) +
                    (opened.state == ServerState::kAsk ? ", so answer its question first" : "")));
  }
  if (!server->Startable()) {
    return session_.replies.RespondError(
        id, Refusal(kRpcWrongState,
                    *alias + " was started already in this session; a server is started once"));
  }
  const bool service = opened.declaration->transport == Transport::kHttp;
  if (!service && !session_.session->profile) {
    StartFailure refused;
    refused.step = StartStep::kConfinement;
    refused.message = *alias + " did not start: there is no profile directory to give it a home in";
    server->StartRefused();
    return session_.replies.RespondError(id, StartError(refused));
  }
  ServerStartOptions options;
  options.profile = session_.session->profile ? &*session_.session->profile : nullptr;
  options.user_home = session_.machine.user_home;
  options.getenv = session_.machine.getenv;
  options.fs = session_.machine.fs;
  options.policy = session_.session->policy;
  options.incognito = session_.settings->incognito;

  ServerLink::Options link_options;
  link_options.startup_timeout = std::chrono::seconds(session_.settings->startup_timeout_seconds);
  link_options.capabilities = session_.settings->capabilities;
  link_options.asking = session_.settings->asking;
  link_options.request_timeout = session_.call_timeout;
  link_options.channels = &session_.channels;
  server->Starting(id, ServerLink::Start(session_.io, *opened.declaration, options,
                                         std::move(link_options), events_for_(*alias)));
  if (session_.replies.congested()) server->link()->PauseOutput();
}

void ServerLifecycle::Stop(const Json& id, RpcParams params) {
  std::optional<std::string> alias = params.String("alias");
  if (params.problem()) return session_.replies.RespondError(id, *params.problem());
  SessionServer* server = session_.Find(id, *alias);
  if (server == nullptr) return;
  switch (server->life()) {
    case ServerLife::kNotStarted:
      return session_.replies.RespondError(id,
                                           Refusal(kRpcWrongState, *alias + " was not started"));
    case ServerLife::kEnded:
      return session_.replies.Respond(
          id, {{"status", server->status() ? Json(*server->status()) : Json()}});
    case ServerLife::kStarting:
      server->AnswerAtEnd(id);
      return server->StopStarting(
          ServerGone(*alias + " was stopped by the session before it answered"),
          "it was stopped by the session");
    case ServerLife::kStopping:
      return server->AnswerAtEnd(id);
    case ServerLife::kRunning:
      server->AnswerAtEnd(id);
      server->StopRunning(ServerGone(*alias + " was stopped by the session"));
      server->link()->Stop();
  }
}

void ServerLifecycle::Started(SessionServer& server) {
  ServerLink& link = *server.link();
  const InitializeResult& hello = link.hello();
  Json server_info = Json();
  if (!hello.server_name.empty() || !hello.server_version.empty()) {
    server_info = {{"name", hello.server_name}, {"version", hello.server_version}};
  }
  Json result = {
      {"serverInfo", server_info},
      {"protocolVersion", hello.protocol_version},
      {"capabilities", Json(hello.capabilities)},
      {"instructions", hello.instructions ? Json(*hello.instructions) : Json()},
      {"tools", Json(link.tools())},
  };
  // It moved, by a yes: the handshake there is done, so the move is kept,
  // and its list, read at the new place, is judged as that declaration's.
  if (!link.moved_to().empty()) {
    result["movedTo"] = link.moved_to();
    if (std::optional<std::string> why = redirects_.KeepMove(server)) result["moveNote"] = *why;
    *server.opened().declaration = server.opened().declaration->MovedTo(link.moved_to());
  }
  Json list = session_.gate->TakeList(
      server.alias(), ComputeDigest(*server.opened().declaration).hex, std::move(link.tools()));
  for (auto& [name, value] : list.items()) result[name] = std::move(value);
  session_.replies.Respond(server.Running(), std::move(result));
}

void ServerLifecycle::StartFailed(SessionServer& server, const StartFailure& failure) {
  RpcError error = StartError(failure);
  // A yes took it where it only asks for a sign-in: the move is kept as a
  // handshake there would keep it, so that `login` (which the error names)
  // signs in where the person said the service is now.
  const std::string& moved_to = server.link()->moved_to();
  if (failure.step == StartStep::kSignInNeeded && !moved_to.empty()) {
    error.data["movedTo"] = moved_to;
    if (std::optional<std::string> why = redirects_.KeepMove(server)) error.data["moveNote"] = *why;
    *server.opened().declaration = server.opened().declaration->MovedTo(moved_to);
  }
  server.StartFailed(failure.step, error);
}

void ServerLifecycle::StopAll(std::function<void()> then) {
  auto left = std::make_shared<std::size_t>(1);
  auto done = std::make_shared<std::function<void()>>(std::move(then));
  auto one_ended = [left, done] {
    if (--*left == 0) (*done)();
  };
  for (auto& [alias, server] : session_.servers) {
    if (server.link() == nullptr || server.life() == ServerLife::kEnded) continue;
    ++*left;
    if (server.life() == ServerLife::kStarting) {
      server.StopStarting(ServerGone(alias + " was stopped: the session is closing"),
                          "the session is closing");
    } else if (server.life() == ServerLife::kRunning) {
      server.StopRunning(ServerGone(alias + " was stopped: the session is closing"));
    }
    server.link()->Stop([one_ended](int) { one_ended(); });
  }
  // Posted, so that `then` runs from the loop even when nothing ran.
  boost::asio::post(session_.io, one_ended);
}

}  // namespace bravebot
