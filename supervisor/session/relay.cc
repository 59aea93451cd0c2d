#include "supervisor/session/relay.h"

#include <utility>

namespace bravebot {
void Relay::Request(const Json& id, RpcParams params) {
  std::optional<std::string> alias = params.String("alias");
  std::optional<std::string> method = params.String("method");
  Json request_params = params.Any("params");
  if (params.problem()) return session_.replies.RespondError(id, *params.problem());
  if (*method == "initialize" || *method == "notifications/initialized") {
    return session_.replies.RespondError(
        id, Refusal(kRpcInvalidParams,
                    "the supervisor made the handshake itself: " + *method + " is not relayed"));
  }
  if (*method == "tools/call") {
    return session_.replies.RespondError(
        id, Refusal(kRpcInvalidParams,
                    "tools/call is not relayed: tool/call calls a tool, once the call is "
                    "decided"));
  }
  if (!request_params.is_null() && !request_params.is_object()) {
    return session_.replies.RespondError(
        id, Refusal(kRpcInvalidParams, "params.params must be an object"));
  }
  std::optional<std::string> tool;
  if (request_params.is_object() && request_params.contains("name") &&
      request_params["name"].is_string()) {
    tool = request_params["name"].get<std::string>();
  }
  const std::string params_text =
      request_params.is_null()
          ? ""
          : request_params.dump(-1, ' ', false, Json::error_handler_t::replace);
  RequestText(id, *alias, *method, params_text, RequestWhat(*method, tool));
}

void Relay::RequestText(const Json& id, const std::string& alias, const std::string& method,
                        std::string_view params_text, const std::string& what) {
  SessionServer* server = session_.Find(id, alias);
  if (server == nullptr) return;
  if (server->life() != ServerLife::kRunning) {
    return session_.replies.RespondError(
        id, Refusal(kRpcWrongState, alias + " is not running: server/start starts it, once"));
  }
  const std::uint64_t tag = server->NextTag();
  if (!server->link()->RequestPassingOn(tag, method, params_text, what)) {
    return session_.replies.RespondError(
        id, Refusal(kRpcServerFailed, alias + " is not taking its input: " + what +
                                          " was not sent, since it closed its input or more than "
                                          "32 MiB waits for it"));
  }
  server->Await(tag, id);
}

void Relay::Notify(const Json& id, RpcParams params) {
  std::optional<std::string> alias = params.String("alias");
  std::optional<std::string> method = params.String("method");
  Json notification_params = params.Any("params");
  if (params.problem()) return session_.replies.RespondError(id, *params.problem());
  if (*method == "notifications/cancelled" || *method == "notifications/initialized") {
    return session_.replies.RespondError(
        id, Refusal(kRpcInvalidParams, *method + " is the supervisor's to send: request/cancel "
                                                 "cancels a request"));
  }
  if (!notification_params.is_null() && !notification_params.is_object()) {
    return session_.replies.RespondError(
        id, Refusal(kRpcInvalidParams, "params.params must be an object"));
  }
  SessionServer* server = session_.Find(id, *alias);
  if (server == nullptr) return;
  if (server->life() != ServerLife::kRunning) {
    return session_.replies.RespondError(id, Refusal(kRpcWrongState, *alias + " is not running"));
  }
  if (!server->link()->Notify(*method, notification_params)) {
    return session_.replies.RespondError(
        id, Refusal(kRpcServerFailed, *alias + " is not reading its input"));
  }
  session_.replies.Respond(id, Json::object());
}

void Relay::Reply(const Json& id, RpcParams params) {
  std::optional<std::string> alias = params.String("alias");
  Json request_id = params.Any("id");
  const bool has_result = params.Has("result");
  const bool has_error = params.Has("error");
  if (params.problem()) return session_.replies.RespondError(id, *params.problem());
  if (has_result == has_error) {
    return session_.replies.RespondError(
        id,
        Refusal(kRpcInvalidParams, "a reply holds exactly one of params.result and params.error"));
  }
  Json error = params.Any("error");
  if (has_error &&
      (!error.is_object() || !error.contains("code") || !error["code"].is_number_integer() ||
       !error.contains("message") || !error["message"].is_string())) {
    return session_.replies.RespondError(
        id, Refusal(kRpcInvalidParams,
                    "params.error must be an object with a whole-number code and a string "
                    "message"));
  }
  const std::int64_t ours = request_id.is_number_integer() ? request_id.get<std::int64_t>() : 0;
  const ServerRequests::Request* waiting = session_.server_requests.Find(ours);
  if (waiting == nullptr || waiting->alias != *alias) {
    return session_.replies.RespondError(
        id, Refusal(kRpcInvalidParams,
                    "no request of " + QuoteLine(*alias, 80) + " with that id waits for a reply"));
  }
  SessionServer* server = session_.Find(id, *alias);
  if (server == nullptr) return;
  const Json server_id = session_.server_requests.Take(ours)->id;
  if (server->link() != nullptr && !server->link()->ended()) {
    if (has_result) {
      server->link()->Reply(server_id, params.Any("result"));
    } else {
      server->link()->ReplyError(server_id, error);
    }
  }
  session_.replies.Respond(id, Json::object());
}

void Relay::Cancel(const Json& id, const RpcParams& params) {
  Json cancelled = params.Any("id");
  if (params.problem()) return session_.replies.RespondError(id, *params.problem());
  const SessionReplies::Waiting* waiting = session_.replies.Find(cancelled);
  if (waiting == nullptr) {
    return session_.replies.RespondError(
        id, Refusal(kRpcInvalidParams, "no request of the session with that id is waiting"));
  }
  const SessionReplies::Waiting flight = *waiting;
  auto found = session_.servers.find(flight.alias);
  if (found == session_.servers.end() || (flight.tag == 0 && !found->second.IsStart(cancelled))) {
    return session_.replies.RespondError(
        id, Refusal(kRpcInvalidParams,
                    "only a server/start, a server/request or a tool/call can be cancelled"));
  }
  SessionServer& server = found->second;
  const RpcError why = Refusal(kRpcCancelled, "cancelled by the session");
  if (flight.tag == 0) {
    // A start cancelled: the server is stopped, and stays so.
    server.StopStarting(why, "its start was cancelled");
  } else {
    server.link()->Cancel(flight.tag, "cancelled by the session");
    server.TakeWaiting(flight.tag);
    server.TakeToolCall(flight.tag);
    session_.replies.RespondError(cancelled, why);
  }
  session_.replies.Respond(id, Json::object());
}

void Relay::OnAnswer(SessionServer& server, McpIncoming answer) {
  if (tool_calls_.TakeListPage(server, answer)) return;
  // A call whose session request was answered with a redirect question is
  // waited on by nobody until the question is answered; an answer before
  // then (its request given up) ends it all the same.
  std::optional<SessionServer::ToolCall> call = server.TakeToolCall(answer.tag);
  std::optional<Json> waiting = server.TakeWaiting(answer.tag);
  if (!waiting) return;
  const Json& session_id = *waiting;
  if (call) return tool_calls_.Answer(server, session_id, std::move(answer), *call);
  const std::string& alias = server.alias();
  if (answer.fault) {
    Json data = answer.fault->code ? Json{{"code", *answer.fault->code}} : Json();
    session_.replies.RespondError(
        session_id, RpcError{kRpcServerFailed, NamedFor(alias, answer.fault->message), data});
  } else if (!session_.replies.SendLine(R"({"jsonrpc":"2.0","id":)" + IdKey(session_id) +
                                        R"(,"result":)" + answer.result_text + "}")) {
    session_.replies.RespondError(
        session_id, RpcError{kRpcServerFailed,
                             alias + "'s answer to " + answer.what +
                                 " is longer than 16 MiB once written to the session, which no "
                                 "session reads",
                             nullptr});
  }
}

void Relay::OnMessage(SessionServer& server, McpIncoming incoming) {
  const std::string& alias = server.alias();
  // A server being stopped is read so that it can end; what it still asks or
  // says goes nowhere, so a flood while it stops costs nothing.
  if (server.life() == ServerLife::kStopping || server.life() == ServerLife::kEnded) return;
  switch (incoming.kind) {
    case McpIncoming::Kind::kServerRequest: {
      // Its id is rewritten to one of ours, so no two servers' requests and
      // none of the session's ids can be taken for each other.
      const Json& id = incoming.message["id"];
      auto ours = session_.server_requests.Add(alias, id);
      if (const Json* refusal = std::get_if<Json>(&ours)) {
        server.link()->ReplyError(id, *refusal);
        return;
      }
      incoming.message["id"] = std::get<std::int64_t>(ours);
      break;
    }
    case McpIncoming::Kind::kNotification:
      if (incoming.method == "notifications/tools/list_changed") tool_calls_.ReadListAgain(server);
      if (incoming.method == "notifications/cancelled") {
        // It gave up a request of its own: name it by the id the session saw.
        Json& params = incoming.message["params"];
        if (!params.is_object() || !params.contains("requestId")) return;
        std::optional<std::int64_t> ours =
            session_.server_requests.TakeOf(alias, params["requestId"]);
        if (!ours) return;
        params["requestId"] = *ours;
      }
      break;
    default:
      return SayNotAMessage(server, incoming);
  }
  if (!session_.replies.Notify("server/message",
                               {{"alias", alias}, {"message", std::move(incoming.message)}})) {
    SessionReplies::Log(alias +
                        ": a message of its own was dropped: written to the session it is longer "
                        "than 16 MiB, which no session reads");
  }
}

void Relay::SayNotAMessage(SessionServer& server, const McpIncoming& incoming) {
  std::optional<std::size_t> unsaid = server.SayNotAMessage(incoming.requests_ended != 0);
  if (!unsaid) return;
  const std::string more = *unsaid == 0
                               ? ""
                               : " (and " + std::to_string(*unsaid) +
                                     " more such lines since the last said, each changing nothing)";
  // Said in our words: the line itself may hold anything, a secret too.
  SessionReplies::Log(server.alias() + " wrote " + incoming.skipped + " (" +
                      std::to_string(incoming.line_bytes) + " bytes) after its handshake" + more +
                      "; " +
                      (incoming.requests_ended == 0
                           ? std::string("no request was waiting on it, so nothing changed")
                           : std::to_string(incoming.requests_ended) +
                                 (incoming.requests_ended == 1 ? " request" : " requests") +
                                 " waiting on it could not be read and " +
                                 (incoming.requests_ended == 1 ? "was" : "were") +
                                 " answered with code " + std::to_string(incoming.skipped_code)) +
                      " (an MCP server writes only MCP messages where its answers go)");
}

}  // namespace bravebot
