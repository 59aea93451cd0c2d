#include "supervisor/session/supervisor.h"

#include <unistd.h>

#include <boost/asio/buffer.hpp>
#include <boost/asio/post.hpp>
#include <utility>

#include "base/bounded_json.h"
#include "base/shown_text.h"
#include "supervisor/session/passed_on_request.h"

namespace bravebot {
namespace {

// Who session/open's mode and skipPermissions say can be asked; nothing for
// a mode the protocol does not name.
std::optional<Asking> AskingOf(const std::string& mode, bool skip_permissions) {
  if (mode != "terminal" && mode != "plain" && mode != "no-terminal" && mode != "one-shot") {
    return std::nullopt;
  }
  if (skip_permissions) return Asking::kSkipPermissions;
  if (mode == "one-shot") return Asking::kOneShot;
  if (mode == "no-terminal") return Asking::kNobody;
  return Asking::kSomebody;
}

}  // namespace

Supervisor::Supervisor(boost::asio::io_context& io, SupervisorMachine machine, int input_fd,
                       int output_fd, const ChannelFactory& channels)
    : io_(io),
      input_(io, input_fd),
      finish_timer_(io),
      output_(io, output_fd, [this](bool congested) { Congested(congested); }),
      session_(io, std::move(machine), channels, output_),
      tool_calls_(session_),
      redirects_(session_, tool_calls_),
      relay_(session_, tool_calls_),
      lifecycle_(session_, redirects_,
                 [this](const std::string& alias) { return EventsFor(alias); }) {
  AddMethods();
}

void Supervisor::AddMethods() {
  using Needs = SessionMethods::Needs;
  auto run = [](auto* part, auto method) {
    return [part, method](const Json& id, RpcParams params) {
      (part->*method)(id, std::move(params));
    };
  };
  methods_.Add("session/open",
               {"directory", "mode", "incognito", "skipPermissions", "startupTimeoutSeconds",
                "callTimeoutSeconds", "capabilities", "builtinTools"},
               run(this, &Supervisor::Open), Needs::kNothing);
  methods_.Add("server/answer", {"alias", "answer"}, run(&lifecycle_, &ServerLifecycle::Answer));
  methods_.Add("server/start", {"alias"}, run(&lifecycle_, &ServerLifecycle::Start));
  methods_.Add("server/stop", {"alias"}, run(&lifecycle_, &ServerLifecycle::Stop));
  methods_.Add("server/request", {"alias", "method", "params"}, run(&relay_, &Relay::Request));
  methods_.Add("server/notify", {"alias", "method", "params"}, run(&relay_, &Relay::Notify));
  methods_.Add("server/reply", {"alias", "id", "result", "error"}, run(&relay_, &Relay::Reply));
  methods_.Add("request/cancel", {"id"}, run(&relay_, &Relay::Cancel));
  methods_.Add("tools/answer", {"alias", "answer", "toolsDigest"},
               run(&tool_calls_, &ToolCalls::AnswerList));
  methods_.Add("tool/call", {"alias", "tool", "arguments", "meta", "answer"},
               run(&tool_calls_,
                   static_cast<void (ToolCalls::*)(const Json&, RpcParams)>(&ToolCalls::Call)));
  methods_.Add("session/released", {"released"}, run(&tool_calls_, &ToolCalls::Released));
  methods_.Add("tools/offered", {"servers"}, run(&tool_calls_, &ToolCalls::Offered));
  methods_.Add("redirect/answer", {"alias", "answer"}, run(&redirects_, &RedirectFlow::Answer));
  methods_.Add("session/status", {}, [this](const Json& id, const RpcParams& params) {
    if (params.problem()) return session_.replies.RespondError(id, *params.problem());
    Status(id);
  });
  methods_.Add("session/close", {}, [this](const Json& id, const RpcParams& params) {
    if (params.problem()) return session_.replies.RespondError(id, *params.problem());
    Close(id);
  });
}

// Each event finds its server by alias: a server is never forgotten while
// the session lasts.
LinkEvents Supervisor::EventsFor(const std::string& alias) {
  LinkEvents events;
  events.on_started = [this, alias] { lifecycle_.Started(session_.At(alias)); };
  events.on_start_failed = [this, alias](const StartFailure& failure) {
    lifecycle_.StartFailed(session_.At(alias), failure);
  };
  events.on_answer = [this, alias](McpIncoming answer) {
    relay_.OnAnswer(session_.At(alias), std::move(answer));
  };
  events.on_message = [this, alias](McpIncoming message) {
    relay_.OnMessage(session_.At(alias), std::move(message));
  };
  events.on_stderr_line = [this, alias](std::string line) {
    // Under backpressure its standard error is kept in its tail only.
    if (!output_.congested()) {
      session_.replies.Notify("server/stderr", {{"alias", alias}, {"line", std::move(line)}});
    }
  };
  events.on_broken = [this, alias](const std::string& why) {
    session_.At(alias).Broken(alias + " was stopped: " + NamedFor(alias, why));
  };
  events.on_exit = [this, alias](int status) { session_.At(alias).Exited(status); };
  events.on_redirect = [this, alias](std::uint64_t tag, std::string question,
                                     const std::string& target) {
    redirects_.Asked(session_.At(alias), tag, std::move(question), target);
  };
  events.on_moved = [this, alias](const std::string& url) {
    redirects_.Moved(session_.At(alias), url);
  };
  return events;
}

void Supervisor::Begin() { ReadInput(); }

void Supervisor::EndOnSignal(int signal) {
  if (ending_) return;
  SessionReplies::Log("stopping every server: signal " + std::to_string(signal) + " came");
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
          SessionReplies::Log(
              "the session wrote a line longer than 16 MiB; no request is that long, so the "
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
      read && session_.session && !session_.replies.IsWaiting(read->id)) {
    if (read->method == "tool/call") {
      if (auto request = ReadPassedOnToolCall(std::move(*read))) {
        return tool_calls_.Call(request->id, request->call);
      }
    } else if (auto request = ReadPassedOnRequest(std::move(*read));
               request && request->method != "tools/call") {
      return relay_.RequestText(request->id, request->alias, request->method, request->params_text,
                                request->what);
    }
  }
  Json message;
  const JsonRefusal refusal = ReadBoundedJson(line, message);
  if (refusal == JsonRefusal::kTooDeep) {
    session_.replies.RespondError(nullptr,
                                  Refusal(kRpcParseError, "the line is JSON nested deeper than " +
                                                              std::to_string(kMaxJsonDepth) +
                                                              " levels, which no request needs"));
    return;
  }
  if (refusal == JsonRefusal::kTooWide) {
    session_.replies.RespondError(
        nullptr, Refusal(kRpcParseError, "the line holds a JSON object of more than " +
                                             std::to_string(kMaxJsonObjectMembers) +
                                             " members, which no request needs"));
    return;
  }
  if (refusal != JsonRefusal::kNone) {
    session_.replies.RespondError(
        nullptr, Refusal(kRpcParseError, "the line is not JSON: " + QuoteLine(line, 80)));
    return;
  }
  if (message.is_array()) {
    session_.replies.RespondError(
        nullptr, Refusal(kRpcInvalidRequest, "a batch is not accepted: send one request a line"));
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
    session_.replies.RespondError(
        has_id ? *id : Json(),
        Refusal(kRpcInvalidRequest,
                "a request is an object with \"jsonrpc\": \"2.0\", a string method and "
                "an id that is a whole number or a string"));
    return;
  }
  if (!has_id) {
    SessionReplies::Log(
        "a notification from the session was not acted on: every method here is a request");
    return;
  }
  if (session_.replies.IsWaiting(*id)) {
    session_.replies.RespondError(
        *id, Refusal(kRpcInvalidRequest,
                     "an earlier request with this id is still waiting for its answer"));
    return;
  }
  auto params = message.find("params");
  methods_.Dispatch(*id, method->get<std::string>(), params == message.end() ? nullptr : &*params,
                    session_.session.has_value(), session_.replies);
}

// --- Requests of the session as a whole.

void Supervisor::Open(const Json& id, RpcParams params) {
  if (session_.session) {
    return session_.replies.RespondError(id, Refusal(kRpcNoSession,
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
  if (params.problem()) return session_.replies.RespondError(id, *params.problem());
  const bool names_only =
      builtin_tools.is_array() && std::all_of(builtin_tools.begin(), builtin_tools.end(),
                                              [](const Json& name) { return name.is_string(); });
  if (!builtin_tools.is_null() && !names_only) {
    return session_.replies.RespondError(
        id, Refusal(kRpcInvalidParams,
                    "params.builtinTools must be a list of strings: the names "
                    "of the session's own tools"));
  }
  if (!capabilities.is_null() && !capabilities.is_object()) {
    return session_.replies.RespondError(
        id, Refusal(kRpcInvalidParams,
                    "params.capabilities must be an object: the client "
                    "capabilities the session offers servers"));
  }
  if (!directory->starts_with('/')) {
    return session_.replies.RespondError(
        id, Refusal(kRpcInvalidParams,
                    "params.directory must be an absolute path: the directory "
                    "the session runs in"));
  }
  std::optional<Asking> asking = AskingOf(*mode, *skip);
  if (!asking) {
    return session_.replies.RespondError(
        id, Refusal(kRpcInvalidParams,
                    "params.mode must be terminal, plain, no-terminal or "
                    "one-shot"));
  }
  settings.directory = *directory;
  settings.asking = *asking;
  settings.incognito = *incognito;
  settings.startup_timeout_seconds = static_cast<int>(*timeout);
  if (capabilities.is_object()) settings.capabilities = std::move(capabilities);
  if (names_only) settings.builtin_tools = builtin_tools.get<std::vector<std::string>>();

  Result<OpenedSession> opened = OpenSession(settings, session_.machine);
  if (!opened) {
    return session_.replies.RespondError(
        id,
        Refusal(kRpcInvalidParams, "the session could not be opened: " + opened.error().message()));
  }
  Json servers = Json::array();
  for (OpenedServer& server : opened->servers) {
    servers.push_back(ServerEntry(server));
    const std::string alias = server.alias;
    session_.servers.emplace(
        std::piecewise_construct, std::forward_as_tuple(alias),
        std::forward_as_tuple(std::move(server), session_.replies, session_.server_requests));
  }
  Json result = {{"servers", std::move(servers)},
                 {"notes", opened->notes},
                 {"confinement",
                  ConfinementEntry(ProbeKernelOnce(), ChooseBackendHere(session_.machine.getenv))}};
  session_.settings = std::move(settings);
  if (*call_timeout > 0) session_.call_timeout = std::chrono::seconds(*call_timeout);
  session_.session = std::move(*opened);
  session_.gate.emplace(*session_.settings, *session_.session);
  session_.replies.Respond(id, std::move(result));
}

void Supervisor::Status(const Json& id) {
  Json servers = Json::array();
  std::vector<std::string> started;
  for (auto& [alias, server] : session_.servers) {
    if (server.life() == ServerLife::kNotStarted) continue;
    Json entry = {{"alias", alias}};
    switch (server.life()) {
      case ServerLife::kStarting:
        entry["state"] = "starting";
        break;
      case ServerLife::kRunning:
        entry["state"] = "running";
        break;
      default:
        entry["state"] = std::string(ServerEndWord(server.end().value_or(ServerEnd::kStopped)));
    }
    const ServerLink* link = server.link();
    if ((server.life() == ServerLife::kStarting || server.life() == ServerLife::kRunning) &&
        !link->ended() && link->pid() > 0) {
      entry["pid"] = link->pid();
    }
    if (server.status()) entry["status"] = *server.status();
    servers.push_back(std::move(entry));
    if (server.life() == ServerLife::kRunning) started.push_back(alias);
  }
  const Json confinement =
      ConfinementEntry(ProbeKernelOnce(), ChooseBackendHere(session_.machine.getenv));
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
      text += under + alias + ": " + session_.gate->StatusLine(alias) + "\n";
    }
  }
  session_.replies.Respond(id,
                           {{"text", text}, {"confinement", confinement}, {"servers", servers}});
}

void Supervisor::Close(const Json& id) {
  session_.replies.Await(id, "", 0);
  EndAll([this, id] {
    session_.replies.Forget(id);
    session_.replies.Respond(id, Json::object());
    Finish(0);
  });
}

// --- Ending.

void Supervisor::EndAll(std::function<void()> then) {
  ending_ = true;
  lifecycle_.StopAll(std::move(then));
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
  for (auto& [alias, server] : session_.servers) {
    ServerLink* link = server.link();
    if (link == nullptr || link->ended()) continue;
    if (congested) {
      link->PauseOutput();
    } else {
      link->ResumeOutput();
    }
  }
}

}  // namespace bravebot
