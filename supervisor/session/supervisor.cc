#include "supervisor/session/supervisor.h"

#include <unistd.h>

#include <boost/asio/buffer.hpp>
#include <boost/asio/post.hpp>
#include <iostream>
#include <utility>

#include "base/bounded_json.h"
#include "base/shown_text.h"
#include "confine/digest.h"
#include "supervisor/policy/managed_policy.h"
#include "supervisor/session/passed_on_request.h"

namespace bravebot {
namespace {

// A sentence about "the server" made to name it by `alias`, since a session
// may serve several.
// Who a service's redirect elsewhere could be put to in this session.
RedirectAsker RedirectAskerOf(const SessionSettings& settings) {
  if (settings.skip_permissions) return RedirectAsker::kSkipPermissions;
  if (settings.mode == "one-shot") return RedirectAsker::kOneShot;
  if (settings.mode == "no-terminal") return RedirectAsker::kNoTerminal;
  return RedirectAsker::kPerson;
}

std::string NamedFor(const std::string& alias, const std::string& sentence) {
  return sentence.starts_with("the server ") ? alias + sentence.substr(10) : sentence;
}

// A server ended, or is being ended, before it answered: its status is not
// known yet.
RpcError Gone(std::string message) {
  return RpcError{kRpcServerGone, std::move(message), Json{{"status", nullptr}}};
}

}  // namespace

Supervisor::Supervisor(boost::asio::io_context& io, SupervisorMachine machine, int input_fd,
                       int output_fd)
    : io_(io),
      machine_(std::move(machine)),
      input_(io, input_fd),
      finish_timer_(io),
      output_(io, output_fd, [this](bool congested) { Congested(congested); }) {}

void Supervisor::Begin() { ReadInput(); }

void Supervisor::EndOnSignal(int signal) {
  if (ending_) return;
  Log("stopping every server: signal " + std::to_string(signal) + " came");
  EndAll([this, signal] { Finish(128 + signal); });
}

// --- The session's input.

void Supervisor::ReadInput() {
  // A session that does not read its answers is not read either: what it is
  // answered waits in its pipe, not in our memory.
  if (reading_input_ || ending_ || output_.congested()) return;
  reading_input_ = true;
  input_.async_read_some(
      boost::asio::buffer(input_buffer_),
      [this](const boost::system::error_code& error, std::size_t got) {
        reading_input_ = false;
        if (ending_) return;
        input_lines_.Feed(std::string_view(input_buffer_.data(), got));
        while (auto line = input_lines_.Next()) {
          TakeLine(*line);
          if (ending_) return;
        }
        if (input_lines_.overflowed()) {
          Log("the session wrote a line longer than 16 MiB; no request is that long, so the "
              "supervisor stops every server and ends");
          EndAll([this] { Finish(1); });
          return;
        }
        if (error) {
          if (auto rest = input_lines_.Rest()) TakeLine(*rest);
          // The session is gone: every server goes with it.
          if (!ending_) EndAll([this] { Finish(0); });
          return;
        }
        ReadInput();
      });
}

void Supervisor::TakeLine(const std::string& line) {
  if (IsBlankLine(line)) return;
  // The requests a session sends most are read member by member, once, what
  // they pass on kept as written; anything else is read whole below.
  if (auto read = ReadSessionRequest(line);
      read && session_ && !in_flight_.contains(IdKey(read->id))) {
    if (read->method == "tool/call") {
      if (auto request = ReadPassedOnToolCall(std::move(*read))) {
        return CallTool(request->id, request->call);
      }
    } else if (auto request = ReadPassedOnRequest(std::move(*read));
               request && request->method != "tools/call") {
      return RelayText(request->id, request->alias, request->method, request->params_text,
                       request->what);
    }
  }
  Json message;
  const JsonRefusal refusal = ReadBoundedJson(line, message);
  if (refusal == JsonRefusal::kTooDeep) {
    RespondError(nullptr, Refusal(kRpcParseError, "the line is JSON nested deeper than " +
                                                      std::to_string(kMaxJsonDepth) +
                                                      " levels, which no request needs"));
    return;
  }
  if (refusal == JsonRefusal::kTooWide) {
    RespondError(nullptr, Refusal(kRpcParseError, "the line holds a JSON object of more than " +
                                                      std::to_string(kMaxJsonObjectMembers) +
                                                      " members, which no request needs"));
    return;
  }
  if (refusal != JsonRefusal::kNone) {
    RespondError(nullptr, Refusal(kRpcParseError, "the line is not JSON: " + QuoteLine(line, 80)));
    return;
  }
  if (message.is_array()) {
    RespondError(nullptr,
                 Refusal(kRpcInvalidRequest, "a batch is not accepted: send one request a line"));
    return;
  }
  auto id = message.is_object() ? message.find("id") : message.end();
  auto method = message.is_object() ? message.find("method") : message.end();
  const bool has_id = id != message.end() && (id->is_number_integer() || id->is_string());
  // Read member by member: value() would throw on a "jsonrpc" that is no string.
  auto version = message.is_object() ? message.find("jsonrpc") : message.end();
  const bool is_version_2 =
      version != message.end() && version->is_string() && version->get<std::string>() == "2.0";
  if (!message.is_object() || !is_version_2 || method == message.end() || !method->is_string() ||
      (id != message.end() && !has_id)) {
    RespondError(has_id ? *id : Json(),
                 Refusal(kRpcInvalidRequest,
                         "a request is an object with \"jsonrpc\": \"2.0\", a string method and "
                         "an id that is a whole number or a string"));
    return;
  }
  if (!has_id) {
    Log("a notification from the session was not acted on: every method here is a request");
    return;
  }
  if (in_flight_.contains(IdKey(*id))) {
    RespondError(*id, Refusal(kRpcInvalidRequest,
                              "an earlier request with this id is still waiting for its answer"));
    return;
  }
  auto params = message.find("params");
  Dispatch(*id, method->get<std::string>(), params == message.end() ? nullptr : &*params);
}

void Supervisor::Dispatch(const Json& id, const std::string& method, const Json* params) {
  if (method == "session/open") {
    return Open(id, RpcParams(params, {"directory", "mode", "incognito", "skipPermissions",
                                       "startupTimeoutSeconds", "callTimeoutSeconds",
                                       "capabilities", "builtinTools"}));
  }
  const bool known =
      method == "server/answer" || method == "server/start" || method == "server/request" ||
      method == "server/notify" || method == "server/reply" || method == "request/cancel" ||
      method == "server/stop" || method == "session/status" || method == "session/close" ||
      method == "tools/answer" || method == "tool/call" || method == "session/released" ||
      method == "tools/offered" || method == "redirect/answer";
  if (!known) {
    return RespondError(
        id, Refusal(kRpcMethodNotFound, "the supervisor has no method " + QuoteLine(method, 80)));
  }
  if (!session_) {
    return RespondError(id, Refusal(kRpcNoSession, "no session is open: send session/open first"));
  }
  if (method == "server/answer") return Answer(id, RpcParams(params, {"alias", "answer"}));
  if (method == "server/start") return StartServer(id, RpcParams(params, {"alias"}));
  if (method == "server/request")
    return Relay(id, RpcParams(params, {"alias", "method", "params"}));
  if (method == "server/notify")
    return Notify(id, RpcParams(params, {"alias", "method", "params"}));
  if (method == "server/reply") {
    return Reply(id, RpcParams(params, {"alias", "id", "result", "error"}));
  }
  if (method == "request/cancel") return Cancel(id, RpcParams(params, {"id"}));
  if (method == "server/stop") return StopServer(id, RpcParams(params, {"alias"}));
  if (method == "tools/answer") {
    return AnswerTools(id, RpcParams(params, {"alias", "answer", "toolsDigest"}));
  }
  if (method == "tool/call") {
    return CallTool(id, RpcParams(params, {"alias", "tool", "arguments", "meta", "answer"}));
  }
  if (method == "session/released") return Released(id, RpcParams(params, {"released"}));
  if (method == "tools/offered") return OfferedTools(id, RpcParams(params, {"servers"}));
  if (method == "redirect/answer") {
    return AnswerRedirect(id, RpcParams(params, {"alias", "answer"}));
  }
  RpcParams none(params, {});
  if (none.problem()) return RespondError(id, *none.problem());
  if (method == "session/status") return SessionStatus(id);
  Close(id);
}

// --- Requests.

void Supervisor::Open(const Json& id, RpcParams params) {
  if (session_) {
    return RespondError(id, Refusal(kRpcNoSession,
                                    "a session is open already: one supervisor "
                                    "serves one session"));
  }
  SessionSettings settings;
  std::optional<std::string> directory = params.String("directory");
  std::optional<std::string> mode = params.String("mode", std::string("terminal"));
  std::optional<bool> incognito = params.Bool("incognito", false);
  std::optional<bool> skip = params.Bool("skipPermissions", false);
  std::optional<long long> timeout = params.Integer("startupTimeoutSeconds", 30, 1, 600);
  // 0, never valid when given, stands for none: a call waits as long as
  // its server takes.
  std::optional<long long> call_timeout =
      params.Integer("callTimeoutSeconds", 0, 1, kMaxCallTimeoutSeconds);
  Json capabilities = params.Any("capabilities");
  Json builtin_tools = params.Any("builtinTools");
  if (params.problem()) return RespondError(id, *params.problem());
  const bool names_only =
      builtin_tools.is_array() && std::all_of(builtin_tools.begin(), builtin_tools.end(),
                                              [](const Json& name) { return name.is_string(); });
  if (!builtin_tools.is_null() && !names_only) {
    return RespondError(id, Refusal(kRpcInvalidParams,
                                    "params.builtinTools must be a list of strings: the names "
                                    "of the session's own tools"));
  }
  if (!capabilities.is_null() && !capabilities.is_object()) {
    return RespondError(id, Refusal(kRpcInvalidParams,
                                    "params.capabilities must be an object: the client "
                                    "capabilities the session offers servers"));
  }
  if (!directory->starts_with('/')) {
    return RespondError(id, Refusal(kRpcInvalidParams,
                                    "params.directory must be an absolute path: the directory "
                                    "the session runs in"));
  }
  if (*mode != "terminal" && *mode != "plain" && *mode != "no-terminal" && *mode != "one-shot") {
    return RespondError(id, Refusal(kRpcInvalidParams,
                                    "params.mode must be terminal, plain, no-terminal or "
                                    "one-shot"));
  }
  settings.directory = *directory;
  settings.mode = *mode;
  settings.incognito = *incognito;
  settings.skip_permissions = *skip;
  settings.startup_timeout_seconds = static_cast<int>(*timeout);
  if (capabilities.is_object()) settings.capabilities = std::move(capabilities);
  if (names_only) settings.builtin_tools = builtin_tools.get<std::vector<std::string>>();

  Result<OpenedSession> opened = OpenSession(settings, machine_);
  if (!opened) {
    return RespondError(id, Refusal(kRpcInvalidParams, "the session could not be opened: " +
                                                           opened.error().message()));
  }
  Json servers = Json::array();
  for (OpenedServer& server : opened->servers) {
    servers.push_back(ServerEntry(server));
    const std::string alias = server.alias;
    slots_[alias].opened = std::move(server);
  }
  Json result = {
      {"servers", std::move(servers)},
      {"notes", opened->notes},
      {"confinement", ConfinementEntry(ProbeKernelOnce(), ChooseBackendHere(machine_.getenv))}};
  settings_ = std::move(settings);
  if (*call_timeout > 0) call_timeout_ = std::chrono::seconds(*call_timeout);
  session_ = std::move(*opened);
  tools_.emplace(*settings_, *session_);
  Respond(id, std::move(result));
}

ServerSlot* Supervisor::Find(const Json& id, const std::optional<std::string>& alias) {
  auto slot = slots_.find(*alias);
  if (slot == slots_.end()) {
    RespondError(id, Refusal(kRpcWrongState,
                             QuoteLine(*alias, 80) + " is not a server this session asked for"));
    return nullptr;
  }
  return &slot->second;
}

void Supervisor::Answer(const Json& id, RpcParams params) {
  std::optional<std::string> alias = params.String("alias");
  std::optional<std::string> answer = params.String("answer");
  if (params.problem()) return RespondError(id, *params.problem());
  ServerSlot* slot = Find(id, alias);
  if (slot == nullptr) return;
  if (slot->opened.state != ServerState::kAsk) {
    return RespondError(id, Refusal(kRpcWrongState, *alias +
                                                        " has no question waiting: its state "
                                                        "is " +
                                                        StateWord(slot->opened.state)));
  }
  // Anything else typed, and nothing, is 3.
  const bool yes = *answer == "1" || *answer == "2";
  if (!yes) {
    slot->opened.state = ServerState::kLeftOut;
    slot->opened.reason = *alias + " is not used in this session: the answer was 3";
    return Respond(id, {{"state", "left-out"}, {"reason", slot->opened.reason}});
  }
  // Incognito records nothing: the yes starts it for this session only.
  if (!settings_->incognito && session_->profile) {
    Status recorded = RecordServerAnswer(*session_->profile, *slot->opened.declaration,
                                         *answer == "2", settings_->directory);
    if (!recorded) {
      slot->opened.state = ServerState::kLeftOut;
      slot->opened.reason = *alias + " was not started: " + recorded.error().message();
      return Respond(id, {{"state", "left-out"}, {"reason", slot->opened.reason}});
    }
  }
  slot->opened.state = ServerState::kStart;
  Respond(id, {{"state", "start"}});
}

void Supervisor::StartServer(const Json& id, RpcParams params) {
  std::optional<std::string> alias = params.String("alias");
  if (params.problem()) return RespondError(id, *params.problem());
  ServerSlot* slot = Find(id, alias);
  if (slot == nullptr) return;
  if (slot->opened.state != ServerState::kStart) {
    return RespondError(
        id,
        Refusal(
            kRpcWrongState,
            *alias + " is not to be started: its state is " + StateWord(slot->opened.state) +
                (slot->opened.state == ServerState::kAsk ? ", so answer its question first" : "")));
  }
  // A service that ended the MCP session it was started in is the one
  // server started again: a new handshake makes a new session.
  const bool session_ended =
      slot->life == ServerLife::kEnded && slot->link && slot->link->session_ended();
  if (slot->life != ServerLife::kNotStarted && !session_ended) {
    return RespondError(
        id, Refusal(kRpcWrongState, *alias + " was started already in this session; a server is "
                                             "started once"));
  }
  if (session_ended) {
    slot->link.reset();
    slot->status.reset();
    slot->end_word.clear();
    slot->ended_on_request = false;
    slot->asked_moves.clear();
  }
  StartFailure refused;
  refused.step = "confinement";
  const bool service = slot->opened.declaration->transport == Transport::kHttp;
  if (!service && !session_->profile) {
    refused.message = *alias + " did not start: there is no profile directory to give it a home in";
  }
  if (!refused.message.empty()) {
    slot->life = ServerLife::kEnded;
    slot->end_word = "failed";
    return RespondError(id, StartError(refused));
  }
  ServerStartOptions options;
  options.profile = session_->profile ? &*session_->profile : nullptr;
  options.user_home = machine_.user_home;
  options.getenv = machine_.getenv;
  options.fs = machine_.fs;
  options.policy = session_->policy;
  options.incognito = settings_->incognito;

  const std::string name = *alias;
  LinkEvents events;
  events.on_started = [this, name] { Started(slots_[name]); };
  events.on_start_failed = [this, name](const StartFailure& failure) {
    ServerSlot& failed = slots_[name];
    // Stopped by the session (server/stop, a cancel, its close), or failed.
    failed.end_word = failure.step == "stopped" ? "stopped" : "failed";
    failed.ended_on_request = true;
    AnswerStart(failed, StartError(failure));
    failed.life = ServerLife::kStopping;
    failed.link->Stop([this, name](int status) { Ended(slots_[name], status); });
  };
  events.on_answer = [this, name](McpIncoming answer) { OnAnswer(name, std::move(answer)); };
  events.on_message = [this, name](McpIncoming message) { OnMessage(name, std::move(message)); };
  events.on_stderr_line = [this, name](std::string line) {
    // Under backpressure its standard error is kept in its tail only.
    if (!output_.congested()) {
      Send(NotificationMessage("server/stderr", {{"alias", name}, {"line", std::move(line)}}));
    }
  };
  events.on_broken = [this, name](const std::string& why) {
    Broken(slots_[name], name + " was stopped: " + NamedFor(name, why));
  };
  events.on_exit = [this, name](int status) { OnServerExit(name, status); };
  events.on_redirect = [this, name](std::uint64_t tag, std::string question, std::string target) {
    OnRedirect(name, tag, std::move(question), std::move(target));
  };
  events.on_moved = [this, name](const std::string& url) { OnMoved(slots_[name], url); };

  ServerLink::Options link_options;
  link_options.startup_timeout = std::chrono::seconds(settings_->startup_timeout_seconds);
  link_options.capabilities = settings_->capabilities;
  link_options.redirect_asker = RedirectAskerOf(*settings_);
  link_options.request_timeout = call_timeout_;
  slot->life = ServerLife::kStarting;
  slot->start_id = id;
  in_flight_[IdKey(id)] = InFlight{name, 0};
  slot->link = ServerLink::Start(io_, *slot->opened.declaration, options, std::move(link_options),
                                 std::move(events));
  if (output_.congested()) slot->link->PauseOutput();
}

void Supervisor::Relay(const Json& id, RpcParams params) {
  std::optional<std::string> alias = params.String("alias");
  std::optional<std::string> method = params.String("method");
  Json request_params = params.Any("params");
  if (params.problem()) return RespondError(id, *params.problem());
  if (*method == "initialize" || *method == "notifications/initialized") {
    return RespondError(
        id, Refusal(kRpcInvalidParams,
                    "the supervisor made the handshake itself: " + *method + " is not relayed"));
  }
  if (*method == "tools/call") {
    return RespondError(id, Refusal(kRpcInvalidParams,
                                    "tools/call is not relayed: tool/call calls a tool, once the "
                                    "call is decided"));
  }
  if (!request_params.is_null() && !request_params.is_object()) {
    return RespondError(id, Refusal(kRpcInvalidParams, "params.params must be an object"));
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
  RelayText(id, *alias, *method, params_text, RequestWhat(*method, tool));
}

void Supervisor::RelayText(const Json& id, const std::string& alias, const std::string& method,
                           std::string_view params_text, const std::string& what) {
  ServerSlot* slot = Find(id, alias);
  if (slot == nullptr) return;
  if (slot->life != ServerLife::kRunning) {
    return RespondError(id, Refusal(kRpcWrongState, alias + " is not running: server/start "
                                                            "starts it, once"));
  }
  const std::uint64_t tag = next_tag_++;
  if (!slot->link->RequestPassingOn(tag, method, params_text, what)) {
    return RespondError(
        id, Refusal(kRpcServerFailed, alias + " is not taking its input: " + what +
                                          " was not sent, since it closed its input or more than "
                                          "32 MiB waits for it"));
  }
  slot->requests[tag] = id;
  in_flight_[IdKey(id)] = InFlight{alias, tag};
}

void Supervisor::Notify(const Json& id, RpcParams params) {
  std::optional<std::string> alias = params.String("alias");
  std::optional<std::string> method = params.String("method");
  Json notification_params = params.Any("params");
  if (params.problem()) return RespondError(id, *params.problem());
  if (*method == "notifications/cancelled" || *method == "notifications/initialized") {
    return RespondError(
        id, Refusal(kRpcInvalidParams, *method + " is the supervisor's to send: request/cancel "
                                                 "cancels a request"));
  }
  if (!notification_params.is_null() && !notification_params.is_object()) {
    return RespondError(id, Refusal(kRpcInvalidParams, "params.params must be an object"));
  }
  ServerSlot* slot = Find(id, alias);
  if (slot == nullptr) return;
  if (slot->life != ServerLife::kRunning) {
    return RespondError(id, Refusal(kRpcWrongState, *alias + " is not running"));
  }
  if (!slot->link->Notify(*method, notification_params)) {
    return RespondError(id, Refusal(kRpcServerFailed, *alias + " is not reading its input"));
  }
  Respond(id, Json::object());
}

void Supervisor::Reply(const Json& id, RpcParams params) {
  std::optional<std::string> alias = params.String("alias");
  Json request_id = params.Any("id");
  const bool has_result = params.Has("result");
  const bool has_error = params.Has("error");
  if (params.problem()) return RespondError(id, *params.problem());
  if (has_result == has_error) {
    return RespondError(id, Refusal(kRpcInvalidParams,
                                    "a reply holds exactly one of params.result and params.error"));
  }
  Json error = params.Any("error");
  if (has_error &&
      (!error.is_object() || !error.contains("code") || !error["code"].is_number_integer() ||
       !error.contains("message") || !error["message"].is_string())) {
    return RespondError(id, Refusal(kRpcInvalidParams,
                                    "params.error must be an object with a whole-number code "
                                    "and a string message"));
  }
  auto waiting = request_id.is_number_integer()
                     ? server_requests_.find(request_id.get<std::int64_t>())
                     : server_requests_.end();
  if (waiting == server_requests_.end() || waiting->second.alias != *alias) {
    return RespondError(id, Refusal(kRpcInvalidParams, "no request of " + QuoteLine(*alias, 80) +
                                                           " with that id waits for a reply"));
  }
  ServerSlot* slot = Find(id, alias);
  if (slot == nullptr) return;
  const Json server_id = waiting->second.id;
  ForgetServerRequest(waiting->first);
  if (slot->link && !slot->link->ended()) {
    if (has_result) {
      slot->link->Reply(server_id, params.Any("result"));
    } else {
      slot->link->ReplyError(server_id, error);
    }
  }
  Respond(id, Json::object());
}

void Supervisor::Cancel(const Json& id, RpcParams params) {
  Json cancelled = params.Any("id");
  if (params.problem()) return RespondError(id, *params.problem());
  auto waiting = in_flight_.find(IdKey(cancelled));
  if (waiting == in_flight_.end()) {
    return RespondError(
        id, Refusal(kRpcInvalidParams, "no request of the session with that id is waiting"));
  }
  const InFlight flight = waiting->second;
  auto found = slots_.find(flight.alias);
  if (found == slots_.end() ||
      (flight.tag == 0 && IdKey(found->second.start_id) != IdKey(cancelled))) {
    return RespondError(
        id, Refusal(kRpcInvalidParams,
                    "only a server/start, a server/request or a tool/call can be cancelled"));
  }
  ServerSlot& slot = found->second;
  const RpcError why = Refusal(kRpcCancelled, "cancelled by the session");
  if (flight.tag == 0) {
    // A start cancelled: the server is stopped, and stays so.
    StopStarting(slot, why, "its start was cancelled");
  } else {
    slot.link->Cancel(flight.tag, "cancelled by the session");
    slot.requests.erase(flight.tag);
    slot.tool_calls.erase(flight.tag);
    in_flight_.erase(waiting);
    RespondError(cancelled, why);
  }
  Respond(id, Json::object());
}

void Supervisor::StopServer(const Json& id, RpcParams params) {
  std::optional<std::string> alias = params.String("alias");
  if (params.problem()) return RespondError(id, *params.problem());
  ServerSlot* slot = Find(id, alias);
  if (slot == nullptr) return;
  if (slot->life == ServerLife::kNotStarted) {
    return RespondError(id, Refusal(kRpcWrongState, *alias + " was not started"));
  }
  if (slot->life == ServerLife::kEnded) {
    return Respond(id, {{"status", slot->status ? Json(*slot->status) : Json()}});
  }
  in_flight_[IdKey(id)] = InFlight{*alias, 0};
  slot->stop_ids.push_back(id);
  if (slot->life == ServerLife::kStarting) {
    StopStarting(*slot, Gone(*alias + " was stopped by the session before it answered"),
                 "it was stopped by the session");
    return;
  }
  if (slot->life == ServerLife::kStopping) return;
  slot->ended_on_request = true;
  slot->life = ServerLife::kStopping;
  slot->end_word = "stopped";
  AnswerWaiting(*slot, Gone(*alias + " was stopped by the session"));
  slot->link->Stop();
}

void Supervisor::SessionStatus(const Json& id) {
  Json servers = Json::array();
  std::vector<std::string> started;
  for (auto& [alias, slot] : slots_) {
    if (slot.life == ServerLife::kNotStarted) continue;
    Json entry = {{"alias", alias}};
    switch (slot.life) {
      case ServerLife::kStarting:
        entry["state"] = "starting";
        break;
      case ServerLife::kRunning:
        entry["state"] = "running";
        break;
      default:
        entry["state"] = slot.end_word;
    }
    if ((slot.life == ServerLife::kStarting || slot.life == ServerLife::kRunning) &&
        !slot.link->ended() && slot.link->pid() > 0) {
      entry["pid"] = slot.link->pid();
    }
    if (slot.status) entry["status"] = *slot.status;
    servers.push_back(std::move(entry));
    if (slot.life == ServerLife::kRunning) started.push_back(alias);
  }
  const Json confinement = ConfinementEntry(ProbeKernelOnce(), ChooseBackendHere(machine_.getenv));
  // Drawn as the spec draws /status: the name column, then its lines below.
  const std::string under = std::string(18, ' ');
  std::string text = "  Confinement   " + confinement["line"].get<std::string>() + "\n" + under +
                     confinement["detail"].get<std::string>() + "\n";
  if (started.empty()) {
    text += "  MCP servers   none\n";
  } else {
    std::string names;
    for (const std::string& alias : started) names += (names.empty() ? "" : ", ") + alias;
    text += "  MCP servers   " + names + "\n";
    for (const std::string& alias : started) {
      text += under + alias + ": " + tools_->StatusLine(alias) + "\n";
    }
  }
  Respond(id, {{"text", text}, {"confinement", confinement}, {"servers", servers}});
}

void Supervisor::Close(const Json& id) {
  in_flight_[IdKey(id)] = InFlight{"", 0};
  EndAll([this, id] {
    in_flight_.erase(IdKey(id));
    Respond(id, Json::object());
    Finish(0);
  });
}

// --- What servers do.

void Supervisor::OnAnswer(const std::string& alias, McpIncoming answer) {
  ServerSlot& slot = slots_[alias];
  if (slot.list_reading && slot.list_reading->tag == answer.tag) {
    return TakeListPage(slot, std::move(answer));
  }
  auto waiting = slot.requests.find(answer.tag);
  if (waiting == slot.requests.end()) return;
  const Json session_id = waiting->second;
  slot.requests.erase(waiting);
  in_flight_.erase(IdKey(session_id));
  if (auto call = slot.tool_calls.find(answer.tag); call != slot.tool_calls.end()) {
    const ServerSlot::ToolCall tool_call = std::move(call->second);
    slot.tool_calls.erase(call);
    return AnswerToolCall(alias, session_id, std::move(answer), tool_call);
  }
  if (answer.fault) {
    Json data = answer.fault->code ? Json{{"code", *answer.fault->code}} : Json();
    RespondError(session_id,
                 RpcError{kRpcServerFailed, NamedFor(alias, answer.fault->message), data});
  } else if (!output_.SendLine(R"({"jsonrpc":"2.0","id":)" + IdKey(session_id) + R"(,"result":)" +
                               answer.result_text + "}")) {
    RespondError(session_id,
                 RpcError{kRpcServerFailed,
                          alias + "'s answer to " + answer.what +
                              " is longer than 16 MiB once written to the session, which no "
                              "session reads",
                          nullptr});
  }
}

void Supervisor::OnMessage(const std::string& alias, McpIncoming incoming) {
  ServerSlot& slot = slots_[alias];
  // A server being stopped is read so that it can end; what it still asks or
  // says goes nowhere, so a flood while it stops costs nothing.
  if (slot.life == ServerLife::kStopping || slot.life == ServerLife::kEnded) return;
  switch (incoming.kind) {
    case McpIncoming::Kind::kServerRequest: {
      const Json& id = incoming.message["id"];
      // What a server may keep waiting is bounded: its ids are short, and
      // its unanswered requests few.
      if (!(id.is_number_integer() ||
            (id.is_string() && id.get_ref<const std::string&>().size() <= kMaxServerIdBytes))) {
        slot.link->ReplyError(id, {{"code", -32600},
                                   {"message",
                                    "an id is a whole number or a string of at most "
                                    "256 bytes"}});
        return;
      }
      if (slot.server_requests >= kMaxServerRequests) {
        slot.link->ReplyError(id, {{"code", -32603},
                                   {"message",
                                    "too many of this server's requests wait for an "
                                    "answer already"}});
        return;
      }
      // Its id is rewritten to one of ours, so no two servers' requests and
      // none of the session's ids can be taken for each other.
      const std::int64_t ours = next_server_request_++;
      server_requests_[ours] = ServerRequest{alias, id};
      server_request_ids_[alias + '\n' + id.dump()] = ours;
      ++slot.server_requests;
      incoming.message["id"] = ours;
      break;
    }
    case McpIncoming::Kind::kNotification:
      if (incoming.method == "notifications/tools/list_changed") ReadListAgain(slot);
      if (incoming.method == "notifications/cancelled") {
        // It gave up a request of its own: name it by the id the session saw.
        Json& params = incoming.message["params"];
        if (!params.is_object() || !params.contains("requestId")) return;
        auto ours = server_request_ids_.find(alias + '\n' + params["requestId"].dump());
        if (ours == server_request_ids_.end()) return;
        params["requestId"] = ours->second;
        ForgetServerRequest(ours->second);
      }
      break;
    default: {
      // Said at most once a second, with how many went unsaid meanwhile: a
      // server that writes such lines without end writes no log without end.
      const auto now = std::chrono::steady_clock::now();
      if (incoming.requests_ended == 0 && slot.skipped_said_at.time_since_epoch().count() != 0 &&
          now - slot.skipped_said_at < std::chrono::seconds(1)) {
        ++slot.skipped_unsaid;
        return;
      }
      const std::string unsaid =
          slot.skipped_unsaid == 0
              ? ""
              : " (and " + std::to_string(slot.skipped_unsaid) +
                    " more such lines since the last said, each changing nothing)";
      slot.skipped_said_at = now;
      slot.skipped_unsaid = 0;
      // Said in our words: the line itself may hold anything, a secret too.
      Log(alias + " wrote " + incoming.skipped + " (" + std::to_string(incoming.line_bytes) +
          " bytes) after its handshake" + unsaid + "; " +
          (incoming.requests_ended == 0
               ? std::string("no request was waiting on it, so nothing changed")
               : std::to_string(incoming.requests_ended) +
                     (incoming.requests_ended == 1 ? " request" : " requests") +
                     " waiting on it could not be read and " +
                     (incoming.requests_ended == 1 ? "was" : "were") + " answered with code " +
                     std::to_string(incoming.skipped_code)) +
          " (an MCP server writes only MCP messages where its answers go)");
      return;
    }
  }
  if (!output_.Send(NotificationMessage(
          "server/message", {{"alias", alias}, {"message", std::move(incoming.message)}}))) {
    Log(alias +
        ": a message of its own was dropped: written to the session it is longer than "
        "16 MiB, which no session reads");
  }
}

void Supervisor::Started(ServerSlot& slot) {
  slot.life = ServerLife::kRunning;
  const InitializeResult& hello = slot.link->hello();
  Json server_info = Json();
  if (!hello.server_name.empty() || !hello.server_version.empty()) {
    server_info = {{"name", hello.server_name}, {"version", hello.server_version}};
  }
  Json result = {
      {"serverInfo", server_info},
      {"protocolVersion", hello.protocol_version},
      {"capabilities", Json(hello.capabilities)},
      {"instructions", hello.instructions ? Json(*hello.instructions) : Json()},
      {"tools", Json(slot.link->tools())},
  };
  // It moved, by a yes: the handshake there is done, so the move is kept,
  // and its list, read at the new place, is judged as that declaration's.
  if (!slot.link->moved_to().empty()) {
    result["movedTo"] = slot.link->moved_to();
    if (std::optional<std::string> why = RecordMove(slot)) result["moveNote"] = *why;
    slot.opened.declaration->url = slot.link->moved_to();
  }
  Json list = tools_->TakeList(slot.opened.alias, ComputeDigest(*slot.opened.declaration).hex,
                               std::move(slot.link->tools()));
  for (auto& [name, value] : list.items()) result[name] = std::move(value);
  const Json id = slot.start_id;
  in_flight_.erase(IdKey(id));
  slot.start_id = nullptr;
  Respond(id, std::move(result));
}

RpcError Supervisor::StartError(const StartFailure& failure) {
  Json data = {{"step", failure.step},
               {"printedAnything", failure.printed_anything},
               {"stderrTail", failure.stderr_tail}};
  if (failure.status) data["status"] = *failure.status;
  return RpcError{kRpcStartFailed, failure.message, std::move(data)};
}

void Supervisor::AnswerStart(ServerSlot& slot, RpcError error) {
  if (slot.start_id.is_null()) return;
  const Json id = slot.start_id;
  slot.start_id = nullptr;
  in_flight_.erase(IdKey(id));
  RespondError(id, std::move(error));
}

void Supervisor::StopStarting(ServerSlot& slot, RpcError answer, const std::string& why) {
  AnswerStart(slot, std::move(answer));
  slot.link->AbandonStart(slot.link->Failure("stopped", why));
}

void Supervisor::Broken(ServerSlot& slot, const std::string& why) {
  if (slot.life != ServerLife::kRunning) return;
  Log(why);
  slot.life = ServerLife::kStopping;
  slot.end_word = "failed";
  AnswerWaiting(slot, RpcError{kRpcServerFailed, why, nullptr});
}

void Supervisor::AnswerWaiting(ServerSlot& slot, const RpcError& error) {
  if (slot.link) slot.link->ForgetRequests();
  slot.list_reading.reset();
  auto requests = std::move(slot.requests);
  slot.requests.clear();
  auto tool_calls = std::move(slot.tool_calls);
  slot.tool_calls.clear();
  for (auto& [tag, id] : requests) {
    in_flight_.erase(IdKey(id));
    auto call = tool_calls.find(tag);
    if (call == tool_calls.end()) {
      RespondError(id, error);
      continue;
    }
    RpcError failed = error;
    failed.message = slot.opened.alias + ":" + EscapeControlCharacters(call->second.tool) +
                     " failed: " + error.message;
    if (!failed.data.is_object()) failed.data = Json::object();
    failed.data["tool"] = call->second.tool;
    failed.data["method"] = "tools/call";
    RespondError(id, std::move(failed));
  }
}

void Supervisor::OnServerExit(const std::string& alias, int status) {
  ServerSlot& slot = slots_[alias];
  if (!slot.ended_on_request) {
    if (slot.end_word.empty()) slot.end_word = "exited";
    AnswerWaiting(slot, RpcError{kRpcServerGone,
                                 alias + " exited with status " + std::to_string(status) +
                                     " before answering",
                                 Json{{"status", status}}});
    // Reported, and never started again without the session asking.
    Send(NotificationMessage(
        "server/exited",
        {{"alias", alias}, {"status", status}, {"stderrTail", slot.link->stderr_tail()}}));
  }
  Ended(slot, status);
}

void Supervisor::Ended(ServerSlot& slot, int status) {
  if (slot.life == ServerLife::kEnded) return;
  slot.life = ServerLife::kEnded;
  // -1: it never ran (its start was refused before anything was started).
  if (status >= 0) slot.status = status;
  if (slot.end_word.empty()) slot.end_word = "stopped";
  // Requests it left unanswered can be answered no more.
  std::vector<std::int64_t> left;
  for (const auto& [ours, request] : server_requests_) {
    if (request.alias == slot.opened.alias) left.push_back(ours);
  }
  for (std::int64_t ours : left) ForgetServerRequest(ours);
  for (const Json& id : slot.stop_ids) {
    in_flight_.erase(IdKey(id));
    Respond(id, {{"status", slot.status ? Json(*slot.status) : Json()}});
  }
  slot.stop_ids.clear();
}

void Supervisor::ForgetServerRequest(std::int64_t ours) {
  auto request = server_requests_.find(ours);
  if (request == server_requests_.end()) return;
  server_request_ids_.erase(request->second.alias + '\n' + request->second.id.dump());
  ServerSlot& slot = slots_[request->second.alias];
  if (slot.server_requests > 0) --slot.server_requests;
  server_requests_.erase(request);
}

// --- Ending.

void Supervisor::EndAll(std::function<void()> then) {
  ending_ = true;
  auto left = std::make_shared<std::size_t>(1);
  auto done = std::make_shared<std::function<void()>>(std::move(then));
  auto one_ended = [left, done] {
    if (--*left == 0) (*done)();
  };
  for (auto& [alias, slot] : slots_) {
    if (!slot.link || slot.life == ServerLife::kEnded) continue;
    ++*left;
    if (slot.life == ServerLife::kStarting) {
      StopStarting(slot, Gone(alias + " was stopped: the session is closing"),
                   "the session is closing");
    } else if (slot.life == ServerLife::kRunning) {
      slot.ended_on_request = true;
      slot.life = ServerLife::kStopping;
      slot.end_word = "stopped";
      AnswerWaiting(slot, Gone(alias + " was stopped: the session is closing"));
    }
    slot.link->Stop([one_ended](int) { one_ended(); });
  }
  // Posted, so that `then` runs from the loop even when nothing ran.
  boost::asio::post(io_, one_ended);
}

void Supervisor::Finish(int status) {
  exit_status_ = status;
  ending_ = true;
  boost::system::error_code ignored;
  input_.close(ignored);
  // Ends once the last answer is written, or after a few seconds of a
  // session that reads no more: every server has ended already.
  output_.WhenWritten([this] { io_.stop(); });
  finish_timer_.expires_after(std::chrono::seconds(5));
  finish_timer_.async_wait([this](const boost::system::error_code& error) {
    if (!error) io_.stop();
  });
}

void Supervisor::Congested(bool congested) {
  if (!congested) ReadInput();
  for (auto& [alias, slot] : slots_) {
    if (!slot.link || slot.link->ended()) continue;
    if (congested) {
      slot.link->PauseOutput();
    } else {
      slot.link->ResumeOutput();
    }
  }
}

// --- Writing.

void Supervisor::Respond(const Json& id, Json result) {
  // An answer no session could read is said in words, never left unsent.
  if (!output_.Send(ResultMessage(id, std::move(result)))) {
    RespondError(id, RpcError{kRpcInternalError,
                              "the answer is longer than 16 MiB once written, which no session "
                              "reads",
                              nullptr});
  }
}

void Supervisor::RespondError(const Json& id, RpcError error) { Send(ErrorMessage(id, error)); }

void Supervisor::Send(const Json& message) { output_.Send(message); }

void Supervisor::Log(const std::string& line) {
  std::cerr << "bravebot-supervisor: " << EscapeControlCharacters(line) << "\n" << std::flush;
}

}  // namespace bravebot
