#include "supervisor/session/tool_calls.h"

#include <algorithm>
#include <utility>
#include <variant>

#include "base/shown_text.h"
#include "confine/digest.h"

namespace bravebot {
namespace {

// "weather:get_alerts", shown.
std::string ToolName(const std::string& alias, const std::string& tool) {
  return alias + ":" + EscapeControlCharacters(tool);
}

bool IsObjectText(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == '{';
}

}  // namespace

void ToolCalls::AnswerList(const Json& id, RpcParams params) {
  std::optional<std::string> alias = params.String("alias");
  std::optional<std::string> answer = params.String("answer");
  std::optional<std::string> shown;
  if (params.Has("toolsDigest")) shown = params.String("toolsDigest");
  if (params.problem()) return session_.replies.RespondError(id, *params.problem());
  if (session_.Find(id, *alias) == nullptr) return;
  Result<Json> answered = session_.gate->AnswerOffer(*alias, *answer, shown);
  if (!answered) {
    return session_.replies.RespondError(id, Refusal(kRpcWrongState, answered.error().message()));
  }
  session_.replies.Respond(id, std::move(*answered));
}

// A tool/call read as a document: what a call needs of it, checked.
void ToolCalls::Call(const Json& id, RpcParams params) {
  std::optional<std::string> alias = params.String("alias");
  std::optional<std::string> tool = params.String("tool");
  Json arguments = params.Any("arguments");
  Json meta = params.Any("meta");
  std::optional<std::string> answer;
  if (params.Has("answer")) answer = params.String("answer");
  if (params.problem()) return session_.replies.RespondError(id, *params.problem());
  if (!arguments.is_null() && !arguments.is_object()) {
    return session_.replies.RespondError(
        id, Refusal(kRpcInvalidParams,
                    "params.arguments must be an object: the arguments the "
                    "model wrote"));
  }
  if (!meta.is_null() && !meta.is_object()) {
    return session_.replies.RespondError(
        id, Refusal(kRpcInvalidParams, "params.meta must be an object"));
  }
  auto text = [](const Json& object) {
    return object.is_null() ? std::string()
                            : object.dump(-1, ' ', false, Json::error_handler_t::replace);
  };
  Call(id, ToolCallRequest{*alias, *tool, text(arguments), text(meta), answer});
}

void ToolCalls::Call(const Json& id, const ToolCallRequest& call) {
  const std::string& alias = call.alias;
  const std::string& tool = call.tool;
  SessionServer* server = session_.Find(id, alias);
  if (server == nullptr) return;
  if (server->life() != ServerLife::kRunning) {
    return session_.replies.RespondError(
        id, Refusal(kRpcWrongState, alias + " is not running: server/start starts it, once"));
  }
  CallPlan plan = session_.gate->PlanCall(alias, tool, call.arguments_text, call.answer);
  if (plan.kind == CallPlan::Kind::kAnswer) {
    return session_.replies.Respond(id, std::move(plan.answer));
  }

  const std::uint64_t tag = server->NextTag();
  const std::string what = "tools/call for " + EscapeControlCharacters(tool);
  // Where the person was asked, the server gets what the question showed.
  const std::string params = ToolsCallParams(call.answer ? AsShown(call) : call);
  if (!server->link()->RequestPassingOn(tag, "tools/call", params, what)) {
    return session_.replies.RespondError(
        id, Refusal(kRpcServerFailed, ToolName(alias, tool) + " was not called: " + alias +
                                          " closed its input, or more than 32 MiB waits for it"));
  }
  server->AwaitCall(tag, id, SessionServer::ToolCall{tool, std::move(plan.note)});
}

void ToolCalls::Answer(SessionServer& server, const Json& id, McpIncoming answer,
                       const SessionServer::ToolCall& call) {
  const std::string& alias = server.alias();
  const std::string& tool = call.tool;
  const std::string& note = call.note;
  const std::string name = ToolName(alias, tool);
  // Our words alone: the tool, the method and the code, never the server's.
  if (answer.fault || !IsObjectText(answer.result_text)) {
    Json data = {{"tool", tool}, {"method", "tools/call"}};
    std::string message = name + " failed: ";
    if (!answer.fault) {
      message += alias + " answered tools/call with a result that is not an object";
    } else if (answer.fault->code && answer.fault->kind == McpFailureKind::kErrorResponse) {
      data["code"] = *answer.fault->code;
      message +=
          alias + " answered tools/call with JSON-RPC error " + std::to_string(*answer.fault->code);
    } else {
      // An answer that could not be read, or none in time: the code is ours.
      if (answer.fault->code) data["code"] = *answer.fault->code;
      message += NamedFor(alias, answer.fault->message);
    }
    return session_.replies.RespondError(
        id, RpcError{kRpcServerFailed, std::move(message), std::move(data)});
  }
  std::string line =
      R"({"jsonrpc":"2.0","id":)" + IdKey(id) + R"(,"result":{"state":"ran","private":true,)";
  if (!note.empty()) {
    line += R"("note":)" + Json(note).dump(-1, ' ', false, Json::error_handler_t::replace) + ",";
  }
  line += R"("result":)" + answer.result_text + "}}";
  if (!session_.replies.SendLine(std::move(line))) {
    session_.replies.RespondError(
        id, RpcError{kRpcServerFailed,
                     name + " failed: its result is longer than 16 MiB once written "
                            "to the session, which no session reads",
                     Json{{"tool", tool}, {"method", "tools/call"}}});
  }
}

void ToolCalls::ReadListAgain(SessionServer& server) {
  // A server still starting reads its list as its start's last step.
  if (server.life() != ServerLife::kRunning) return;
  if (server.list_reading) {
    server.list_reading->changed_again = true;
    return;
  }
  server.list_reading.emplace();
  AskForListPage(server);
}

void ToolCalls::AskForListPage(SessionServer& server) {
  ListReading& reading = *server.list_reading;
  reading.tag = server.NextTag();
  if (!server.link()->Request(reading.tag, "tools/list", reading.pages.NextParams(),
                              "tools/list")) {
    SessionReplies::Log(
        server.alias() +
        ": its changed list was not read: it closed its input, or too much waits for it "
        "(32 MiB for a program, 16 requests for a service); the list it gave before holds");
    server.list_reading.reset();
  }
}

bool ToolCalls::TakeListPage(SessionServer& server, McpIncoming& answer) {
  if (!server.list_reading || server.list_reading->tag != answer.tag) return false;
  const std::string& alias = server.alias();
  ListReading& reading = *server.list_reading;
  std::optional<McpFault> fault = std::move(answer.fault);
  if (!fault) {
    auto step = reading.pages.Take(std::move(answer.result), answer.line_bytes);
    if (std::holds_alternative<ToolListPages::NextPage>(step)) {
      AskForListPage(server);
      return true;
    }
    if (auto* failed = std::get_if<McpFault>(&step)) fault = std::move(*failed);
  }
  if (fault) {
    // The list said yes to before stays: what it named is still decided
    // call by call, and nothing new is offered.
    SessionReplies::Log(alias + ": its changed list was not read (" + fault->message +
                        "); the list it gave before holds");
    server.list_reading.reset();
    return true;
  }
  std::vector<nlohmann::ordered_json> tools = std::move(reading.pages.tools());
  const bool changed_again = reading.changed_again;
  server.list_reading.reset();
  Json params = {{"alias", alias}, {"tools", Json(tools)}};
  Json fields = session_.gate->TakeList(alias, ComputeDigest(*server.opened().declaration).hex,
                                        std::move(tools));
  for (auto& [name, value] : fields.items()) params[name] = std::move(value);
  if (!session_.replies.Notify("server/toolsChanged", std::move(params))) {
    SessionReplies::Log(alias +
                        ": server/toolsChanged was dropped: written to the session it is longer "
                        "than 16 MiB, which no session reads");
  }
  if (changed_again) ReadListAgain(server);
  return true;
}

void ToolCalls::Released(const Json& id, RpcParams params) {
  std::optional<bool> released = params.Bool("released", true);
  if (params.problem()) return session_.replies.RespondError(id, *params.problem());
  session_.gate->SetReleased(*released);
  session_.replies.Respond(id, {{"released", *released}});
}

void ToolCalls::Offered(const Json& id, RpcParams params) {
  Json servers = params.Any("servers");
  if (params.problem()) return session_.replies.RespondError(id, *params.problem());
  std::optional<std::vector<std::string>> aliases;
  if (servers.is_array()) {
    aliases.emplace();
    for (const Json& alias : servers) {
      if (!alias.is_string()) {
        return session_.replies.RespondError(
            id, Refusal(kRpcInvalidParams, "params.servers must be a list of aliases, or \"all\""));
      }
      if (!session_.servers.contains(alias.get<std::string>())) {
        return session_.replies.RespondError(
            id, Refusal(kRpcWrongState, QuoteLine(alias.get<std::string>(), 80) +
                                            " is not a server this session asked for"));
      }
      aliases->push_back(alias.get<std::string>());
    }
  } else if (!servers.is_null() && servers != "all") {
    return session_.replies.RespondError(
        id, Refusal(kRpcInvalidParams, "params.servers must be a list of aliases, or \"all\""));
  }
  session_.replies.Respond(id, {{"tools", session_.gate->Offered(aliases)}});
}

}  // namespace bravebot
