#include "cli/gateway/gateway_servers.h"

#include <chrono>
#include <utility>

#include "base/shown_text.h"
#include "cli/gateway/flows.h"
#include "cli/session_view.h"

namespace bravebot {
namespace {

// How long a tools/list waits for the servers still starting, past the
// supervisor's own start-up timeout (30 s), which answers every start by then.
constexpr auto kLongestStartWait = std::chrono::seconds(90);

std::string ErrorWords(const Answer& answer, const std::string& otherwise) {
  if (answer.ended) return "bravebot-supervisor ended before it answered: its log says why";
  return answer.message["error"].value("message", otherwise);
}

// The tool's own name, from the model's name the supervisor gives it.
std::string ToolOf(const std::string& alias, const Json& model_tool) {
  const std::string name = model_tool.value("name", "");
  const std::string prefix = "mcp__" + alias + "__";
  return name.rfind(prefix, 0) == 0 ? name.substr(prefix.size()) : name;
}

}  // namespace

void GatewayServers::Opened(const Json& result) {
  std::vector<std::string> starts;
  for (const Json& note : result["notes"]) notes_.push_back(note.get<std::string>());
  for (const Json& server : result["servers"]) {
    const std::string alias = server["alias"];
    Server& ours = servers_[alias];
    ours.state = server["state"];
    ours.question = server.value("question", "");
    ours.note = server.value("reason", "");
    if (ours.state == "start") starts.push_back(alias);
  }
  for (const std::string& alias : starts) Start(alias);
}

void GatewayServers::Start(const std::string& alias) {
  servers_[alias].state = "starting";
  ++starting_;
  // Sent now, in the order the starts come; the answer is taken by a
  // coroutine of its own, which may put a question.
  link_.supervisor.CallThen("server/start", {{"alias", alias}}, [this, alias](Answer answer) {
    SpawnFlow(link_.executor, Started(alias, std::move(answer)));
  });
}

boost::asio::awaitable<void> GatewayServers::Started(std::string alias, Answer answer) {
  // A service that points elsewhere is put to the person first: nothing is
  // sent to the new place before a yes.
  while (!answer.is_error() && answer.message["result"].value("state", "") == "redirect") {
    const std::string typed =
        co_await link_.ask(RedirectQuestion(answer.message["result"].value("question", "")));
    // Params apart from co_await: GCC 12 does not compile a braced list in it.
    Json params = {{"alias", alias}, {"answer", typed}};
    answer = co_await link_.supervisor.Call("redirect/answer", std::move(params));
  }
  Server& server = servers_[alias];
  if (answer.is_error()) {
    server.state = "failed";
    server.note = ErrorWords(answer, alias + " did not start");
    const Json error = answer.message.value("error", Json::object());
    const Json data = error.is_object() ? error.value("data", Json::object()) : Json::object();
    if (data.is_object() && data.value("step", "") == "timeout") {
      // Where it ran out of time, what gives it more.
      server.note +=
          "; bravebot-mcp gateway --startup-timeout SECONDS, in the client's "
          "settings for this gateway, gives a server longer to start";
    }
  } else {
    server.state = "running";
    TakeList(alias, answer.message["result"]);
  }
  --starting_;
  starts_changed_.NotifyAll();
  TellChanged();
}

void GatewayServers::TakeList(const std::string& alias, const Json& list) {
  Server& server = servers_[alias];
  server.list_question.reset();
  server.tools = Json::array();
  server.note.clear();
  if (list.value("offered", false)) {
    server.tools = list.value("modelTools", Json::array());
  } else if (list.contains("note")) {
    // Nobody could be asked: the terminal command that asks is named.
    std::string note = list.value("note", "");
    if (note.rfind("note: ", 0) == 0) note.erase(0, 6);
    server.note = note + ": bravebot-mcp approve " + alias + " --tools, run at a terminal in " +
                  link_.directory + ", puts the list to you, and the next session offers it";
  } else {
    // The plain reading of the raw list first, as a session draws it.
    server.list_question = Json{{"offer", list.value("offer", "") + "\n\n" +
                                              LintText(alias, list.value("lint", Json::array()))},
                                {"toolsDigest", list.value("toolsDigest", "")}};
  }
  Renamed();
}

boost::asio::awaitable<void> GatewayServers::PutQuestions() {
  co_await questions_.Wait([this] { return !putting_; });
  putting_ = true;
  struct Turn {
    GatewayServers& servers;
    ~Turn() {
      servers.putting_ = false;
      servers.questions_.NotifyAll();
    }
  } turn{*this};
  std::vector<std::pair<std::string, std::string>> asked;
  for (const auto& [alias, server] : servers_) {
    if (server.state == "ask") asked.emplace_back(alias, server.question);
  }
  for (const auto& [alias, text] : asked) {
    const std::string typed = co_await link_.ask(ServerQuestion(text));
    Json params = {{"alias", alias}, {"answer", typed}};  // apart from co_await, for GCC 12
    Answer answer = co_await link_.supervisor.Call("server/answer", std::move(params));
    const std::string state =
        answer.is_error() ? "left-out" : answer.message["result"].value("state", "left-out");
    if (state == "start") {
      Start(alias);
      continue;
    }
    servers_[alias].state = state;
    servers_[alias].note =
        answer.is_error() ? ErrorWords(answer, "") : answer.message["result"].value("reason", "");
  }
  co_await starts_changed_.Wait([this] { return starting_ == 0; }, kLongestStartWait);
  std::vector<std::string> lists;
  for (const auto& [alias, server] : servers_) {
    if (server.list_question) lists.push_back(alias);
  }
  // A start that ends from here on is told to the client: the answer
  // being made may come too early for it.
  listed_ = true;
  for (const std::string& alias : lists) co_await PutListQuestion(alias);
}

boost::asio::awaitable<void> GatewayServers::PutListQuestion(std::string alias) {
  for (;;) {
    if (!servers_[alias].list_question) co_return;
    const Json waiting = *servers_[alias].list_question;
    const std::string typed = co_await link_.ask(ListQuestion(waiting["offer"]));
    Json params = {{"alias", alias}, {"answer", typed}, {"toolsDigest", waiting["toolsDigest"]}};
    Answer answer = co_await link_.supervisor.Call("tools/answer", std::move(params));
    Server& server = servers_[alias];
    if (answer.is_error()) {
      // The list changed while it was put: the new one is asked about next.
      if (server.list_question &&
          (*server.list_question)["toolsDigest"] != waiting["toolsDigest"]) {
        continue;
      }
      server.list_question.reset();
      server.note = ErrorWords(answer, alias + "'s list was not offered");
      co_return;
    }
    server.list_question.reset();
    const Json& result = answer.message["result"];
    if (result.value("offered", false)) {
      server.tools = result.value("modelTools", Json::array());
      server.note.clear();
    } else {
      server.note = alias + ": no tool offered, as you answered";
    }
    Renamed();
    co_return;
  }
}

void GatewayServers::Renamed() {
  std::vector<ServerTool> tools;
  for (const auto& [alias, server] : servers_) {
    for (const Json& tool : server.tools) tools.push_back({alias, ToolOf(alias, tool)});
  }
  names_ = GatewayToolNames(tools, {kStatusToolName}, given_);
  by_name_.clear();
  for (const auto& [tool, name] : names_) {
    by_name_[name.name] = tool;
    given_.emplace(name.name, tool);
  }
}

void GatewayServers::TellChanged() {
  if (!listed_) return;  // the client's first tools/list reads it all
  link_.client.Notify("notifications/tools/list_changed", nullptr);
}

Json GatewayServers::ToolsListResult() {
  std::string description =
      "Says which MCP servers bravebot-mcp started here, confined, which it left out and why, "
      "and the command a person runs at a terminal to answer a question this client could not "
      "put. It calls no server.";
  std::string said;
  for (const std::string& note : notes_) said += "\n- " + note;
  for (const auto& [alias, server] : servers_) {
    if (!server.note.empty() && server.note.find(alias) != std::string::npos &&
        said.find(server.note) == std::string::npos) {
      said += "\n- " + server.note;
    }
  }
  if (!said.empty()) description += "\n\nNow:" + said;
  Json tools = Json::array();
  tools.push_back({{"name", kStatusToolName},
                   {"description", description},
                   {"inputSchema", {{"type", "object"}, {"properties", Json::object()}}}});
  for (const auto& [alias, server] : servers_) {
    for (const Json& model_tool : server.tools) {
      const ServerTool tool{alias, ToolOf(alias, model_tool)};
      const GatewayToolName& name = names_[tool];
      Json offered = model_tool;
      offered["name"] = name.name;
      if (!link_.can_ask) {
        offered["description"] =
            offered.value("description", "") +
            "\n\nThis client takes no questions (MCP elicitation): a call of this tool that the "
            "user would be asked about is refused, and after a first result every call is. "
            "bravebot-mcp approve " +
            alias + ":" + EscapeControlCharacters(tool.tool) + ", run at a terminal in " +
            link_.directory + ", stops asking for it in this project.";
      }
      if (name.shortened) {
        offered["description"] = offered.value("description", "") +
                                 "\n\nThe server names this tool " +
                                 EscapeControlCharacters(tool.tool) + "; it is offered here as " +
                                 name.name + ", a name every client takes.";
      }
      tools.push_back(std::move(offered));
    }
  }
  return {{"tools", std::move(tools)}};
}

std::vector<std::string> GatewayServers::Aliases() {
  std::vector<std::string> aliases;
  for (const auto& [alias, server] : servers_) aliases.push_back(alias);
  return aliases;
}

std::optional<ServerTool> GatewayServers::Find(const std::string& name) {
  auto found = by_name_.find(name);
  if (found == by_name_.end()) return std::nullopt;
  return found->second;
}

boost::asio::awaitable<std::string> GatewayServers::StatusText() {
  Answer status = co_await link_.supervisor.Call("session/status", nullptr);
  std::string text = status.is_error() ? ErrorWords(status, "") + "\n"
                                       : status.message["result"].value("text", "");
  text += "  Directory     " + link_.directory + "\n";
  for (const std::string& note : notes_) text += note + "\n";
  for (const auto& [alias, server] : servers_) {
    if (!server.note.empty() && text.find(server.note) == std::string::npos) {
      text += server.note + "\n";
    }
  }
  co_return text;
}

void GatewayServers::ToolsChanged(const Json& params) {
  const std::string alias = params.value("alias", "");
  if (servers_.count(alias) == 0) return;
  TakeList(alias, params);
  TellChanged();
}

void GatewayServers::Exited(const Json& params) {
  const std::string alias = params.value("alias", "");
  if (servers_.count(alias) == 0) return;
  Server& server = servers_[alias];
  server.state = "ended";
  server.tools = Json::array();
  server.list_question.reset();
  server.note = alias + " exited with status " + std::to_string(params.value("status", -1)) +
                "; it is not started again in this session";
  Renamed();
  TellChanged();
}

}  // namespace bravebot
