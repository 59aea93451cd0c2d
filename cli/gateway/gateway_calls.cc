// The gateway's calls: a client's tools/call carried through the
// supervisor's decisions (its question put through the client, the redirect
// a service met) to its answer.
#include "base/json_members.h"
#include "base/shown_text.h"
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

// ALIAS:TOOL as our words name it: the tool's name is the server's, escaped.
std::string ShownName(const ServerTool& tool) {
  return tool.alias + ":" + EscapeControlCharacters(tool.tool);
}

}  // namespace

void Gateway::CallTool(const Incoming& request) {
  bool opened = false;
  {
    std::lock_guard lock(mutex_);
    calls_[request.id_text()] = 0;  // in flight: a cancel from here on counts
    opened = opened_;
  }
  if (opened) return StartCall(request);
  // Before the session opened (a client that calls before it lists): waited
  // for on a thread of its own.
  const bool spawned = Spawn([this, request] {
    if (WaitOpened() != nullptr) StartCall(request);
  });
  if (!spawned) Finish(request.id_text(), "", ToolError("bravebot-mcp gateway is too busy"));
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
      "tool/call", flight->call, [this, flight](const Answer& answer) { Decided(flight, answer); });
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
             ToolError(ShownName(flight->tool) +
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
               ? ToolError(ShownName(flight->tool) +
                           " ran, but its result was not passed on: the session could not be "
                           "marked as having let a result out, so no later call would be asked")
               : result);
  });
  if (!spawned) {
    Finish(flight->id, flight->token,
           ToolError(ShownName(flight->tool) +
                     " ran, but its result was not passed on: bravebot-mcp gateway is too busy"));
  }
}

void Gateway::Asked(const std::shared_ptr<CallInFlight>& flight, const Answer& answer) {
  const Json& asked = answer.message["result"];
  bool cancelled = false;
  {
    std::lock_guard lock(mutex_);
    cancelled = cancelled_.count(flight->id) > 0;
    if (cancelled) Forget(flight->id, flight->token);
  }
  if (cancelled) {
    // Nobody is asked about a call the client gave up. A move the
    // supervisor holds for it is said no to, so that the server's next
    // question is not held behind it.
    if (asked.value("state", "") == "redirect") {
      supervisor_.CallThen("redirect/answer", {{"alias", flight->tool.alias}, {"answer", "n"}},
                           [](const Answer&) {});
    }
    return;
  }
  if (asked.value("state", "") == "redirect") {
    // A service that points elsewhere: nothing is sent there before a yes.
    const std::string typed = Ask(RedirectQuestion(asked.value("question", "")));
    supervisor_.CallThen("redirect/answer", {{"alias", flight->tool.alias}, {"answer", typed}},
                         [this, flight](const Answer& moved) { Decided(flight, moved); });
    return;
  }
  const std::string text = asked.value("question", "");
  const bool remembers = text.find("(not offered") == std::string::npos;
  flight->call["answer"] = Ask(CallQuestion(text, ShownName(flight->tool), remembers));
  SendCall(flight);
}

std::string Gateway::RefusalText(const CallInFlight& flight, const Answer& answer) {
  const std::string alias_and_tool = ShownName(flight.tool);
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

}  // namespace bravebot
