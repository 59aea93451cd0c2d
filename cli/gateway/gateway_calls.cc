// The gateway's calls: a client's tools/call carried through the
// supervisor's decisions (its question put through the client, the redirect
// a service met), and the requests and notifications that pass between a
// server and the client meanwhile.
#include <iostream>

#include "base/json_members.h"
#include "cli/gateway/gateway.h"

namespace bravebot {
namespace {

std::string ToolError(const std::string& words) {
  Json result = {{"content", {{{"type", "text"}, {"text", words}}}}, {"isError", true}};
  return result.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// The server's result inside tool/call's answer, as the server wrote it.
std::string ServerResultText(const Answer& answer) {
  std::vector<JsonMember> inner;
  if (std::optional<std::vector<JsonMember>> outer =
          ReadJsonObjectMembers(answer.line, "result", inner)) {
    std::string_view result = FindJsonMember(inner, "result");
    if (!result.empty()) return std::string(result);
  }
  return answer.message["result"]["result"].dump(-1, ' ', false, Json::error_handler_t::replace);
}

// The longest progress token of a server's request kept, to pass the
// client's progress on that request back to it.
constexpr std::size_t kLongestProgressToken = 256;

// The capability a client declares for a server's request to reach it.
std::string CapabilityFor(const std::string& method) {
  if (method == "roots/list") return "roots";
  if (method == "sampling/createMessage") return "sampling";
  if (method == "elicitation/create") return "elicitation";
  return "";
}

}  // namespace

void Gateway::CallTool(const Incoming& request) {
  {
    std::lock_guard lock(mutex_);
    calls_[request.id_text()] = 0;  // in flight: a cancel from here on counts
    if (!opened_) {
      // Before the session opened (a client that calls before it lists):
      // waited for on a thread of its own.
      if (!Spawn([this, request] {
            if (WaitOpened() != nullptr) StartCall(request);
          })) {
        calls_.erase(request.id_text());
        client_.ReplyError(request.id_text(), -32603, "bravebot-mcp gateway is too busy");
      }
      return;
    }
  }
  StartCall(request);
}

void Gateway::StartCall(const Incoming& request) {
  const Json& params = request.message["params"];
  const std::string name = params.is_object() ? params.value("name", "") : "";
  if (name == kStatusToolName) {
    // It asks the supervisor and waits: on a thread of its own.
    const bool spawned = Spawn([this, request] {
      Json result = {{"content", {{{"type", "text"}, {"text", servers_->StatusText()}}}}};
      Finish(request.id_text(), "", result.dump(-1, ' ', false, Json::error_handler_t::replace));
    });
    if (!spawned) Finish(request.id_text(), "", ToolError("bravebot-mcp gateway is too busy"));
    return;
  }
  std::optional<ServerTool> tool = servers_->Find(name);
  if (!tool) {
    bool cancelled = false;
    {
      std::lock_guard lock(mutex_);
      calls_.erase(request.id_text());
      cancelled = cancelled_.erase(request.id_text()) > 0;
    }
    if (!cancelled) {
      client_.ReplyError(request.id_text(), -32602,
                         "no tool " + name + " is offered here: tools/list says what is");
    }
    return;
  }
  auto flight = std::make_shared<CallInFlight>();
  flight->id = request.id_text();
  flight->tool = *tool;
  flight->call = {{"alias", tool->alias},
                  {"tool", tool->tool},
                  {"arguments", params.value("arguments", Json::object())}};
  if (params.contains("_meta") && params["_meta"].is_object()) {
    flight->call["meta"] = params["_meta"];
    if (params["_meta"].contains("progressToken")) {
      flight->token = params["_meta"]["progressToken"].dump();
    }
  }
  // The server's progress on this call reaches the client while it runs,
  // and no other server's under its token.
  if (flight->token.size() > kLongestProgressToken) flight->token.clear();
  if (!flight->token.empty()) {
    std::lock_guard lock(mutex_);
    call_tokens_[flight->token] = tool->alias;
  }
  SendCall(flight);
}

void Gateway::SendCall(const std::shared_ptr<CallInFlight>& flight) {
  {
    std::lock_guard lock(mutex_);
    if (cancelled_.count(flight->id) > 0) {
      Forget(flight->id, flight->token);
      return;
    }
  }
  // Its answer is taken on the supervisor's reading thread.
  const std::int64_t sent = supervisor_.CallThen(
      "tool/call", flight->call, [this, flight](Answer answer) { Decided(flight, answer); });
  bool cancel_now = false;
  {
    std::lock_guard lock(mutex_);
    auto call = calls_.find(flight->id);
    if (call == calls_.end()) return;  // answered already
    call->second = sent;
    // A cancel that came while it was being sent did not know its id.
    cancel_now = cancelled_.count(flight->id) > 0;
  }
  if (cancel_now) supervisor_.Call("request/cancel", {{"id", sent}});
}

void Gateway::Decided(const std::shared_ptr<CallInFlight>& flight, const Answer& answer) {
  const std::string state = answer.is_error() ? "" : answer.message["result"].value("state", "");
  if (state == "ask" || state == "redirect") {
    // A question waits for the person: on a thread of its own.
    if (!Spawn([this, flight, answer] { Asked(flight, answer); })) {
      Finish(flight->id, flight->token,
             ToolError(flight->tool.alias + ":" + flight->tool.tool +
                       " was not called: bravebot-mcp gateway is too busy to put its question"));
    }
    return;
  }
  if (state != "ran") {
    Finish(flight->id, flight->token, RefusalText(*flight, answer));
    return;
  }
  // The client hands every result to its model: from here on every call is
  // put to the person, as after something private was let out. The
  // supervisor knows it before the client has the result.
  bool first = false;
  {
    std::lock_guard lock(mutex_);
    first = !released_;
    released_ = true;
  }
  std::string result = ServerResultText(answer);
  if (!first) {
    Finish(flight->id, flight->token, result);
    return;
  }
  // Told on a thread of its own: this reading thread must never wait to
  // write to the supervisor, which may be waiting for it to read.
  const bool spawned = Spawn([this, flight, result] {
    Answer released = supervisor_.Call("session/released", {{"released", true}}).get();
    // A result goes out only once the supervisor asks of every later call.
    Finish(flight->id, flight->token,
           released.is_error()
               ? ToolError(flight->tool.alias + ":" + flight->tool.tool +
                           " ran, but its result was not passed on: the session could not be "
                           "marked as having let a result out, so no later call would be asked")
               : result);
  });
  if (!spawned) {
    Finish(flight->id, flight->token,
           ToolError(flight->tool.alias + ":" + flight->tool.tool +
                     " ran, but its result was not passed on: bravebot-mcp gateway is too busy"));
  }
}

void Gateway::Asked(const std::shared_ptr<CallInFlight>& flight, const Answer& answer) {
  const Json& asked = answer.message["result"];
  if (asked.value("state", "") == "redirect") {
    // A service that points elsewhere: nothing is sent there before a yes.
    const std::string typed = Ask(RedirectQuestion(asked.value("question", "")));
    supervisor_.CallThen("redirect/answer", {{"alias", flight->tool.alias}, {"answer", typed}},
                         [this, flight](Answer moved) { Decided(flight, moved); });
    return;
  }
  const std::string text = asked.value("question", "");
  const bool remembers = text.find("(not offered") == std::string::npos;
  flight->call["answer"] =
      Ask(CallQuestion(text, flight->tool.alias + ":" + flight->tool.tool, remembers));
  SendCall(flight);
}

std::string Gateway::RefusalText(const CallInFlight& flight, const Answer& answer) {
  const std::string alias_and_tool = flight.tool.alias + ":" + flight.tool.tool;
  if (answer.ended) {
    return ToolError(alias_and_tool + " failed: bravebot-supervisor ended before it answered");
  }
  if (answer.is_error()) {
    return ToolError(answer.message["error"].value("message", alias_and_tool + " failed"));
  }
  std::string words = answer.message["result"].value("text", alias_and_tool + " was not called");
  std::lock_guard lock(mutex_);
  const bool can_ask = servers_ && servers_->can_ask();
  if (!can_ask && words.find(" is put to the user before it runs") != std::string::npos) {
    words += released_ ? " (For the user: once a result has reached the model, every call is "
                         "put to a person, and this client takes no questions (MCP "
                         "elicitation): use a client that does, or bravebot-mcp session.)"
                       : " (For the user: bravebot-mcp approve " + alias_and_tool +
                             ", run at a terminal in " + directory_ +
                             ", stops asking for it in this project.)";
  }
  return ToolError(words);
}

void Gateway::Finish(const std::string& id, const std::string& token, const std::string& reply) {
  bool cancelled = false;
  {
    std::lock_guard lock(mutex_);
    cancelled = Forget(id, token);
  }
  // Written with no lock held: a client slow to read holds up this call
  // alone.
  if (!cancelled && !reply.empty()) client_.Reply(id, reply);
}

bool Gateway::Forget(const std::string& id, const std::string& token) {
  calls_.erase(id);
  if (!token.empty()) call_tokens_.erase(token);
  // A call the client cancelled is not answered, as MCP asks.
  return cancelled_.erase(id) > 0;
}

void Gateway::Cancelled(const Json& params) {
  if (!params.contains("requestId")) return;
  const std::string id = params["requestId"].dump();
  std::optional<std::int64_t> sent;
  {
    std::lock_guard lock(mutex_);
    auto call = calls_.find(id);
    if (call == calls_.end()) return;
    cancelled_[id] = true;
    sent = call->second;
  }
  // 0: not sent to the supervisor yet, and now it never is.
  if (*sent != 0) supervisor_.Call("request/cancel", {{"id", *sent}});
}

void Gateway::ProgressToServer(const Json& params) {
  if (!params.contains("progressToken")) return;
  std::string alias;
  {
    std::lock_guard lock(mutex_);
    auto found = progress_tokens_.find(params["progressToken"].dump());
    if (found == progress_tokens_.end()) return;
    alias = found->second;
  }
  supervisor_.Call("server/notify",
                   {{"alias", alias}, {"method", "notifications/progress"}, {"params", params}});
}

void Gateway::RelayServerRequest(const std::string& alias, const Json& message) {
  const std::string method = message.value("method", "");
  const Json& id = message["id"];
  auto reply = [&](const char* member, Json value) {
    supervisor_.Call("server/reply", {{"alias", alias}, {"id", id}, {member, std::move(value)}});
  };
  if (method == "ping") return reply("result", Json::object());
  const std::string capability = CapabilityFor(method);
  bool declared = false;
  {
    std::unique_lock lock(mutex_);
    declared = !capability.empty() && client_capabilities_.contains(capability);
    // Nothing but ping and logging goes to a client before it said it is
    // initialized.
    if (declared) changed_.wait(lock, [this] { return initialized_ || ending_; });
  }
  if (!declared) {
    return reply("error", {{"code", -32601},
                           {"message", method +
                                           " is not relayed: the client of bravebot-mcp gateway "
                                           "declared no " +
                                           (capability.empty() ? "such capability" : capability)}});
  }
  Json params = message.value("params", Json::object());
  if (method == "elicitation/create" && params.is_object()) {
    if (params.value("mode", "form") != "form" && !ClientTakes(params.value("mode", ""))) {
      return reply("error", {{"code", -32602},
                             {"message", "the client of bravebot-mcp gateway declared no " +
                                             params.value("mode", "") + " elicitation"}});
    }
    // The person must know which server asks, and that it is not us: its
    // words start after our prefix, never on a line of their own.
    std::string words = params.value("message", "");
    words.erase(0, words.find_first_not_of(" \t\r\n"));
    params["message"] = alias + " asks: " + words;
  }
  std::int64_t ours = 0;
  std::string token;
  {
    std::lock_guard lock(mutex_);
    if (params.is_object() && params.contains("_meta") && params["_meta"].is_object() &&
        params["_meta"].contains("progressToken")) {
      token = params["_meta"]["progressToken"].dump();
      // A token is a short id; a long one is not kept, so no server grows
      // what the gateway holds.
      if (token.size() <= kLongestProgressToken) progress_tokens_[token] = alias;
    }
  }
  std::future<Answer> waiting = client_.Call(method, params, ours);
  {
    std::lock_guard lock(mutex_);
    relayed_[alias + "\n" + id.dump()] = ours;
  }
  Answer answer = waiting.get();
  {
    std::lock_guard lock(mutex_);
    relayed_.erase(alias + "\n" + id.dump());
    if (!token.empty()) progress_tokens_.erase(token);
  }
  if (answer.ended) {
    return reply("error", {{"code", -32603}, {"message", "the client went away first"}});
  }
  if (answer.message.contains("error") && answer.message["error"].is_object()) {
    return reply("error", answer.message["error"]);
  }
  reply("result", answer.message.value("result", Json::object()));
}

bool Gateway::ClientTakes(const std::string& elicitation_mode) {
  std::lock_guard lock(mutex_);
  auto elicitation = client_capabilities_.find("elicitation");
  return elicitation != client_capabilities_.end() && elicitation->is_object() &&
         elicitation->contains(elicitation_mode);
}

void Gateway::RelayServerNotification(const std::string& alias, const Json& message) {
  const std::string method = message.value("method", "");
  Json params = message.value("params", Json::object());
  if (method == "notifications/progress") {
    {
      std::lock_guard lock(mutex_);
      auto call = params.is_object() && params.contains("progressToken")
                      ? call_tokens_.find(params["progressToken"].dump())
                      : call_tokens_.end();
      if (call == call_tokens_.end() || call->second != alias) return;
    }
    client_.Notify(method, params);
  } else if (method == "notifications/message" && params.is_object()) {
    // The client shows a log's logger: it names the server.
    const std::string logger = params.value("logger", "");
    params["logger"] = logger.empty() ? alias : alias + "/" + logger;
    client_.Notify(method, params);
  } else if (method == "notifications/cancelled" && params.is_object() &&
             params.contains("requestId")) {
    {
      std::lock_guard lock(mutex_);
      auto found = relayed_.find(alias + "\n" + params["requestId"].dump());
      if (found == relayed_.end()) return;
      params["requestId"] = found->second;
    }
    client_.Notify(method, params);
  }
}

}  // namespace bravebot
