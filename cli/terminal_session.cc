#include "cli/terminal_session.h"

#include <functional>
#include <utility>
#include <vector>

#include "base/result.h"
#include "base/shown_text.h"
#include "cli/session_view.h"
#include "supervisor/tools/tool_offer.h"

namespace bravebot {
namespace {

std::string ToolCount(std::size_t count) {
  return std::to_string(count) + (count == 1 ? " tool" : " tools");
}

std::size_t CountOf(const nlohmann::ordered_json& list, const char* member) {
  auto found = list.find(member);
  return found != list.end() && found->is_array() ? found->size() : 0;
}

}  // namespace

TerminalSession::TerminalSession(SupervisorChild& supervisor, TerminalQuestions* questions,
                                 std::ostream& out, std::ostream& err, std::string name)
    : questions_(questions),
      out_(out),
      name_(std::move(name)),
      err_(err),
      connection_(supervisor,
                  [this](const Json& notification) { return OnNotification(notification); }) {}

void TerminalSession::Print(const std::string& text) {
  ClearProgress();
  out_ << text << std::flush;
}

void TerminalSession::ShowProgress(const std::string& alias,
                                   std::chrono::steady_clock::time_point sent) {
  const auto waited =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - sent);
  std::string line = "  " + alias + ": waiting for its answer to initialize, " +
                     std::to_string(waited.count()) + " s of " +
                     std::to_string(options_.startup_timeout_seconds) + " s";
  if (auto runner = options_.runners.find(alias); runner != options_.runners.end()) {
    line +=
        " (" + runner->second + " fetches the package into the server's home on its first start)";
  }
  const std::size_t width = static_cast<std::size_t>(options_.progress_width);
  if (width > 1 && line.size() >= width) line.resize(width - 1);
  // Drawn again in place: a carriage return, the line, and the rest of the
  // old one erased.
  out_ << "\r" << line << "\x1b[K" << std::flush;
  progress_shown_ = true;
}

void TerminalSession::ClearProgress() {
  if (!progress_shown_) return;
  out_ << "\r\x1b[K" << std::flush;
  progress_shown_ = false;
}

bool TerminalSession::OnNotification(const Json& notification) {
  const std::string method = notification.value("method", "");
  const Json params = notification.contains("params") && notification["params"].is_object()
                          ? notification["params"]
                          : Json::object();
  if (method == "server/stderr") {
    ClearProgress();
    // The supervisor escaped it already. The words are the server's own, so
    // each line says whose it is, and none can pass for a line of ours.
    err_ << params.value("alias", "") << ": " << params.value("line", "") << "\n" << std::flush;
  } else if (method == "server/exited") {
    running_.erase(params.value("alias", ""));
    Print(params.value("alias", "") + " exited with status " +
          std::to_string(params.value("status", -1)) + "; it is not started again\n");
  } else if (method == "server/toolsChanged") {
    changed_lists_[params.value("alias", "")] = params;
    return true;
  } else if (method == "server/message" && params.contains("message") &&
             params["message"].contains("id")) {
    // The session offered servers no capability (sampling, roots,
    // elicitation), so it answers each request of theirs that it has none.
    connection_.SendUnanswered(
        "server/reply",
        {{"alias", params.value("alias", "")},
         {"id", params["message"]["id"]},
         {"error", {{"code", -32601}, {"message", name_ + " answers no request of a server"}}}});
  }
  return false;
}

Result<TerminalSession::Json> TerminalSession::Answered(const std::optional<Json>& answer) {
  if (!answer) {
    supervisor_ended_ = true;
    return Error(ErrorCode::kSystem,
                 "bravebot-supervisor ended before it answered; its log above says why");
  }
  if (answer->contains("error")) {
    return Error(ErrorCode::kRefused,
                 (*answer)["error"].value("message", "the supervisor refused the request"));
  }
  return answer->contains("result") ? (*answer)["result"] : Json::object();
}

void TerminalSession::PrintRefusal(const Error& refusal) {
  if (supervisor_ended_) {
    err_ << name_ << ": " << refusal.message() << "\n" << std::flush;
  } else {
    Print(refusal.message() + "\n");
  }
}

std::optional<TerminalSession::Json> TerminalSession::ResultOf(const std::optional<Json>& answer) {
  return Printed(Answered(answer));
}

std::optional<TerminalSession::Json> TerminalSession::Printed(Result<Json> result) {
  if (!result) {
    PrintRefusal(result.error());
    return std::nullopt;
  }
  return std::move(*result);
}

Result<TerminalSession::Json> TerminalSession::Request(const std::string& method, Json params) {
  return Answered(connection_.Call(method, std::move(params)));
}

bool TerminalSession::Open(const TerminalSessionOptions& options) {
  options_ = options;
  const std::string mode = options.one_shot ? "one-shot" : questions_ ? "plain" : "no-terminal";
  std::optional<Json> opened = ResultOf(connection_.Call(
      "session/open", {{"directory", options.directory},
                       {"mode", mode},
                       {"incognito", options.incognito},
                       {"skipPermissions", options.skip_permissions},
                       {"startupTimeoutSeconds", options.startup_timeout_seconds}}));
  if (!opened) return false;
  Print(ConfinementText((*opened)["confinement"]));
  // Why a server was not started, a file that could not be read: where
  // nobody can be asked (a one-shot run, no terminal) on standard error, as
  // the spec says, so that what is read from standard output is the
  // session's own.
  for (const Json& note : (*opened)["notes"]) {
    if (questions_) {
      Print(note.get<std::string>() + "\n");
    } else {
      err_ << note.get<std::string>() << "\n" << std::flush;
    }
  }

  Json servers = (*opened)["servers"];
  for (Json& server : servers) {
    if (server["state"] != "ask") continue;
    const std::string typed = questions_ ? questions_->Ask(server["question"]) : "";
    std::optional<Json> answered = ResultOf(
        connection_.Call("server/answer", {{"alias", server["alias"]}, {"answer", typed}}));
    if (!answered) continue;
    server["state"] = (*answered)["state"];
    if (answered->contains("reason")) Print((*answered)["reason"].get<std::string>() + "\n");
  }
  StartServers(servers);
  return !supervisor_ended_;
}

void TerminalSession::StartServers(const Json& servers) {
  // Every start is sent at once: they run concurrently, and each list is put
  // in the order of the aliases once all are up.
  std::vector<std::pair<std::string, int>> starts;
  for (const Json& server : servers) {
    if (server["state"] != "start") continue;
    const std::string alias = server["alias"];
    starts.emplace_back(alias, connection_.Send("server/start", {{"alias", alias}}));
  }
  const auto sent = std::chrono::steady_clock::now();
  std::vector<std::pair<std::string, Json>> started;
  for (const auto& [alias, id] : starts) {
    Result<Json> result = Started(alias, id, sent);
    if (result) {
      started.emplace_back(alias, std::move(*result));
    } else {
      PrintRefusal(result.error());
    }
  }
  for (const auto& [alias, result] : started) PutList(alias, result);
}

Result<TerminalSession::Json> TerminalSession::StartServer(const std::string& alias) {
  return Started(alias, connection_.Send("server/start", {{"alias", alias}}),
                 std::chrono::steady_clock::now());
}

Result<TerminalSession::Json> TerminalSession::Started(const std::string& alias, int id,
                                                       std::chrono::steady_clock::time_point sent) {
  std::function<void()> each_quiet_second;
  if (options_.progress) each_quiet_second = [&] { ShowProgress(alias, sent); };
  std::optional<Json> answer = connection_.WaitFor(id, each_quiet_second);
  ClearProgress();
  BRAVEBOT_ASSIGN_OR_RETURN(Json result, StartAnswered(alias, answer));
  if (result.value("state", "") == "redirect") {
    BRAVEBOT_ASSIGN_OR_RETURN(result, StartAnswered(alias, Moved(alias, result)));
  }
  running_.insert(alias);
  return result;
}

Result<TerminalSession::Json> TerminalSession::StartAnswered(const std::string& alias,
                                                             const std::optional<Json>& answer) {
  // A move a yes kept is said whether the start went on at the new address
  // or failed there (it asks for a sign-in, which login then makes there):
  // with why it could not be written, where it could not.
  const Json* told = nullptr;
  if (answer && answer->contains("result")) told = &(*answer)["result"];
  if (answer && answer->contains("error") && (*answer)["error"].contains("data")) {
    told = &(*answer)["error"]["data"];
  }
  if (told != nullptr && told->is_object() && told->contains("movedTo")) {
    Print(alias + " is declared at " + EscapeControlCharacters(told->value("movedTo", "")) +
          " from now on\n");
    if (told->contains("moveNote")) Print(told->value("moveNote", "") + "\n");
  }
  Result<Json> result = Answered(answer);
  if (!result && told != nullptr && told->is_object() && told->value("step", "") == "timeout" &&
      !options_.startup_timeout_flag.empty()) {
    // Where it ran out of time, what gives it more.
    return Error(result.error().code(), result.error().message() + "; " +
                                            options_.startup_timeout_flag +
                                            " gives a server longer to start");
  }
  return result;
}

void TerminalSession::PutList(const std::string& alias, const Json& list) {
  if (list.value("offered", false)) {
    Print(alias + ": " + ToolCount(CountOf(list, "modelTools")) + " offered to the model\n");
    return;
  }
  if (list.contains("note")) {
    Print(list["note"].get<std::string>() + "\n");
    return;
  }
  if (!questions_) return;  // the supervisor withholds it, and says so in a note
  std::optional<Json> answered = Printed(AskAboutList(alias, list));
  if (!answered) return;
  if (answered->contains("note")) Print((*answered)["note"].get<std::string>() + "\n");
  Print((*answered)["offered"] == true
            ? alias + ": " + ToolCount(CountOf(*answered, "modelTools")) + " offered to the model\n"
            : alias + ": no tool offered, as you answered\n");
}

Result<TerminalSession::Json> TerminalSession::AskAboutList(const std::string& alias,
                                                            const Json& list) {
  std::string offer = list.value("offer", "");
  while (!offer.empty() && offer.back() == '\n') offer.pop_back();
  questions_->Show("\n" + offer + "\n\n" + LintText(alias, list["lint"]) + "\n");
  const std::string typed = questions_->Ask(kOfferQuestionPlain);
  return Request("tools/answer", {{"alias", alias},
                                  {"answer", IsYes(typed) ? "y" : "n"},
                                  {"toolsDigest", list.value("toolsDigest", "")}});
}

void TerminalSession::PutChangedLists() {
  while (!changed_lists_.empty() && !supervisor_ended_) {
    const std::string alias = changed_lists_.begin()->first;
    Json changed = std::move(changed_lists_.begin()->second);
    changed_lists_.erase(changed_lists_.begin());
    Print(alias + " says its list of tools changed; it was read again\n");
    PutList(alias, changed);
  }
}

void TerminalSession::TakeLine(const std::string& line) {
  if (line.find_first_not_of(" \t\r") == std::string::npos) return;
  if (line == "/status") {
    if (std::optional<Json> status = ResultOf(connection_.Call("session/status", nullptr))) {
      Print((*status)["text"].get<std::string>());
    }
  } else if (line == "/release") {
    if (ResultOf(connection_.Call("session/released", {{"released", true}}))) {
      Print(
          "something private was let out of quarantine: every call from now on is put to "
          "you\n");
    }
  } else if (line.front() == '/') {
    err_ << "bravebot-mcp session: there is no " << QuoteLine(line, 40)
         << "; /status and /release are the session's own\n"
         << std::flush;
  } else {
    MakeCall(line);
  }
}

void TerminalSession::MakeCall(const std::string& line) {
  Result<CallLine> call = ParseCallLine(line);
  if (!call) {
    err_ << "bravebot-mcp session: " << call.error().message() << "\n" << std::flush;
    return;
  }
  if (!running_.count(call->alias)) {
    err_ << "bravebot-mcp session: " << QuoteLine(call->alias, 40)
         << " is no server running in this session; what became of each server it asked "
            "for was said as it opened, and /status names those running\n"
         << std::flush;
    return;
  }
  Json params = {{"alias", call->alias}, {"tool", call->tool}, {"arguments", call->arguments}};
  std::optional<Json> decided = ResultOf(connection_.Call("tool/call", params));
  if (decided && (*decided)["state"] == "ask") {
    // In --plain a yes is answer 1: answer 2 is given in the full-screen
    // interface, and there is no room for it here.
    std::string typed;
    if (questions_) {
      questions_->Show("\n");
      typed = questions_->Ask((*decided)["plainQuestion"]);
    }
    params["answer"] = IsYes(typed) ? "1" : "3";
    decided = ResultOf(connection_.Call("tool/call", params));
  }
  if (decided && decided->value("state", "") == "redirect") {
    decided = ResultOf(Moved(call->alias, *decided));
  }
  if (!decided) return;
  if ((*decided)["state"] == "ran") {
    Print(CallResultText(call->alias, call->tool, (*decided)["result"]));
    if (decided->contains("note")) Print((*decided)["note"].get<std::string>() + "\n");
  } else {
    Print(decided->value("text", "") + "\n");
  }
}

std::optional<TerminalSession::Json> TerminalSession::Moved(const std::string& alias,
                                                            const Json& asked) {
  // Asked at the terminal; nobody at one is never asked (the supervisor
  // refuses the move itself), so no answer here is a no.
  std::string typed;
  if (questions_) {
    questions_->Show("\n");
    typed = questions_->Ask(asked.value("question", ""));
  }
  return connection_.Call("redirect/answer",
                          {{"alias", alias}, {"answer", IsYes(typed) ? "y" : "n"}});
}

void TerminalSession::Close() {
  if (supervisor_ended_) return;
  ResultOf(connection_.Call("session/close", nullptr));
}

}  // namespace bravebot
