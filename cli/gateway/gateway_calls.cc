// The gateway's calls: a client's tools/call carried through the
// supervisor's decisions (its question put through the client, the redirect
// a service met) to its answer.
#include <utility>

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
  calls_[request.id_text()] = 0;  // in flight: a cancel from here on counts
  if (opened_) return StartCall(request);
  // Before the session opened (a client that calls before it lists): waited
  // for by a coroutine of its own.
  if (!Spawn(CallWhenOpened(request))) {
    Finish(request.id_text(), "", ToolError("bravebot-mcp gateway is too busy"));
  }
}

Gateway::Flow Gateway::CallWhenOpened(Incoming request) {
  if (co_await WaitOpened() != nullptr) StartCall(request);
}

Gateway::Flow Gateway::Status(Incoming request) {
  const std::string text = co_await servers_->StatusText();
  Json result = {{"content", {{{"type", "text"}, {"text", text}}}}};
  Finish(request.id_text(), "", result.dump(-1, ' ', false, Json::error_handler_t::replace));
}

void Gateway::StartCall(const Incoming& request) {
  const Json& params = request.message["params"];
  const std::string name = params.is_object() ? params.value("name", "") : "";
  if (name == kStatusToolName) {
    // It asks the supervisor and waits: a coroutine of its own.
    if (!Spawn(Status(request))) {
      Finish(request.id_text(), "", ToolError("bravebot-mcp gateway is too busy"));
    }
    return;
  }
  std::optional<ServerTool> tool = servers_->Find(name);
  if (!tool) {
    calls_.erase(request.id_text());
    const bool cancelled = cancelled_.erase(request.id_text()) > 0;
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
  if (!flight->token.empty()) call_tokens_[flight->token] = tool->alias;
  SendCall(flight);
}

void Gateway::SendCall(const std::shared_ptr<CallInFlight>& flight) {
  if (cancelled_.count(flight->id) > 0) {
    Forget(flight->id, flight->token);
    return;
  }
  // Its answer is taken as it is read.
  const std::int64_t sent = supervisor_.CallThen(
      "tool/call", flight->call, [this, flight](const Answer& answer) { Decided(flight, answer); });
  auto call = calls_.find(flight->id);
  if (call == calls_.end()) return;  // answered already (the supervisor had ended)
  call->second = sent;
}

void Gateway::Decided(const std::shared_ptr<CallInFlight>& flight, const Answer& answer) {
  const std::string state = answer.is_error() ? "" : answer.message["result"].value("state", "");
  if (state == "ask" || state == "redirect") {
    // A question waits for the person: a coroutine of its own.
    if (!Spawn(Asked(flight, answer))) {
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
  const bool first = !std::exchange(released_, true);
  std::string result = ServerResultText(answer);
  if (!first) {
    Finish(flight->id, flight->token, result);
    return;
  }
  // The supervisor's answer is awaited by a coroutine of its own.
  if (!Spawn(Released(flight, std::move(result)))) {
    Finish(flight->id, flight->token,
           ToolError(ShownName(flight->tool) +
                     " ran, but its result was not passed on: bravebot-mcp gateway is too busy"));
  }
}

Gateway::Flow Gateway::Released(std::shared_ptr<CallInFlight> flight, std::string result) {
  Json released_params = {{"released", true}};  // apart from co_await, for GCC 12
  Answer released = co_await supervisor_.Call("session/released", std::move(released_params));
  // A result goes out only once the supervisor asks of every later call.
  Finish(flight->id, flight->token,
         released.is_error()
             ? ToolError(ShownName(flight->tool) +
                         " ran, but its result was not passed on: the session could not be "
                         "marked as having let a result out, so no later call would be asked")
             : result);
}

Gateway::Flow Gateway::Asked(std::shared_ptr<CallInFlight> flight, Answer answer) {
  const Json& asked = answer.message["result"];
  if (cancelled_.count(flight->id) > 0) {
    Forget(flight->id, flight->token);
    // Nobody is asked about a call the client gave up. A move the
    // supervisor holds for it is said no to, so that the server's next
    // question is not held behind it.
    if (asked.value("state", "") == "redirect") {
      supervisor_.Tell("redirect/answer", {{"alias", flight->tool.alias}, {"answer", "n"}});
    }
    co_return;
  }
  if (asked.value("state", "") == "redirect") {
    // A service that points elsewhere: nothing is sent there before a yes.
    const std::string typed = co_await Ask(RedirectQuestion(asked.value("question", "")));
    supervisor_.CallThen("redirect/answer", {{"alias", flight->tool.alias}, {"answer", typed}},
                         [this, flight](const Answer& moved) { Decided(flight, moved); });
    co_return;
  }
  const std::string text = asked.value("question", "");
  const bool remembers = text.find("(not offered") == std::string::npos;
  flight->call["answer"] = co_await Ask(CallQuestion(text, ShownName(flight->tool), remembers));
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
  const bool cancelled = Forget(id, token);
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
  auto call = calls_.find(id);
  if (call == calls_.end()) return;
  cancelled_[id] = true;
  // 0: not sent to the supervisor yet, and now it never is.
  if (call->second != 0) supervisor_.Tell("request/cancel", {{"id", call->second}});
}

}  // namespace bravebot
