// The supervisor's requests about tool lists and calls: tools/answer,
// tool/call, session/released and tools/offered. What is decided is
// SessionTools's; what is here is reading the params and the I/O.
#include <algorithm>
#include <utility>
#include <variant>

#include "base/shown_text.h"
#include "confine/digest.h"
#include "supervisor/session/supervisor.h"

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

void Supervisor::AnswerTools(const Json& id, RpcParams params) {
  std::optional<std::string> alias = params.String("alias");
  std::optional<std::string> answer = params.String("answer");
  std::optional<std::string> shown;
  if (params.Has("toolsDigest")) shown = params.String("toolsDigest");
  if (params.problem()) return RespondError(id, *params.problem());
  if (Find(id, alias) == nullptr) return;
  Result<Json> answered = tools_->AnswerOffer(*alias, *answer, shown);
  if (!answered) return RespondError(id, Refusal(kRpcWrongState, answered.error().message()));
  Respond(id, std::move(*answered));
}

// A tool/call read as a document: what CallTool needs of it, checked.
void Supervisor::CallTool(const Json& id, RpcParams params) {
  std::optional<std::string> alias = params.String("alias");
  std::optional<std::string> tool = params.String("tool");
  Json arguments = params.Any("arguments");
  Json meta = params.Any("meta");
  std::optional<std::string> answer;
  if (params.Has("answer")) answer = params.String("answer");
  if (params.problem()) return RespondError(id, *params.problem());
  if (!arguments.is_null() && !arguments.is_object()) {
    return RespondError(id, Refusal(kRpcInvalidParams,
                                    "params.arguments must be an object: the arguments the "
                                    "model wrote"));
  }
  if (!meta.is_null() && !meta.is_object()) {
    return RespondError(id, Refusal(kRpcInvalidParams, "params.meta must be an object"));
  }
  auto text = [](const Json& object) {
    return object.is_null() ? std::string()
                            : object.dump(-1, ' ', false, Json::error_handler_t::replace);
  };
  CallTool(id, ToolCallRequest{*alias, *tool, text(arguments), text(meta), answer});
}

void Supervisor::CallTool(const Json& id, const ToolCallRequest& call) {
  const std::string& alias = call.alias;
  const std::string& tool = call.tool;
  ServerSlot* slot = Find(id, alias);
  if (slot == nullptr) return;
  if (slot->life != ServerLife::kRunning) {
    return RespondError(id, Refusal(kRpcWrongState, alias + " is not running: server/start "
                                                            "starts it, once"));
  }
  CallPlan plan = tools_->PlanCall(alias, tool, call.arguments_text, call.answer);
  if (plan.kind == CallPlan::Kind::kAnswer) return Respond(id, std::move(plan.answer));

  const std::uint64_t tag = next_tag_++;
  const std::string what = "tools/call for " + EscapeControlCharacters(tool);
  // Where the person was asked, the server gets what the question showed.
  const std::string params = ToolsCallParams(call.answer ? AsShown(call) : call);
  if (!slot->link->RequestPassingOn(tag, "tools/call", params, what)) {
    return RespondError(
        id, Refusal(kRpcServerFailed, ToolName(alias, tool) + " was not called: " + alias +
                                          " closed its input, or more than 32 MiB waits for it"));
  }
  slot->requests[tag] = id;
  slot->tool_calls[tag] = ServerSlot::ToolCall{tool, std::move(plan.note)};
  in_flight_[IdKey(id)] = InFlight{alias, tag};
}

void Supervisor::AnswerToolCall(const std::string& alias, const Json& id, McpIncoming answer,
                                const ServerSlot::ToolCall& call) {
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
      message += answer.fault->message.starts_with("the server ")
                     ? alias + answer.fault->message.substr(10)
                     : answer.fault->message;
    }
    return RespondError(id, RpcError{kRpcServerFailed, std::move(message), std::move(data)});
  }
  std::string line =
      R"({"jsonrpc":"2.0","id":)" + IdKey(id) + R"(,"result":{"state":"ran","private":true,)";
  if (!note.empty()) {
    line += R"("note":)" + Json(note).dump(-1, ' ', false, Json::error_handler_t::replace) + ",";
  }
  line += R"("result":)" + answer.result_text + "}}";
  if (!output_.SendLine(std::move(line))) {
    RespondError(id, RpcError{kRpcServerFailed,
                              name + " failed: its result is longer than 16 MiB once written "
                                     "to the session, which no session reads",
                              Json{{"tool", tool}, {"method", "tools/call"}}});
  }
}

void Supervisor::ReadListAgain(ServerSlot& slot) {
  // A server still starting reads its list as its start's last step.
  if (slot.life != ServerLife::kRunning) return;
  if (slot.list_reading) {
    slot.list_reading->changed_again = true;
    return;
  }
  slot.list_reading.emplace();
  AskForListPage(slot);
}

void Supervisor::AskForListPage(ServerSlot& slot) {
  ListReading& reading = *slot.list_reading;
  reading.tag = next_tag_++;
  if (!slot.link->Request(reading.tag, "tools/list", reading.pages.NextParams(), "tools/list")) {
    Log(slot.opened.alias +
        ": its changed list was not read: it closed its input, or too much waits for it "
        "(32 MiB for a program, 16 requests for a service); the list it gave before holds");
    slot.list_reading.reset();
  }
}

void Supervisor::TakeListPage(ServerSlot& slot, McpIncoming answer) {
  const std::string& alias = slot.opened.alias;
  ListReading& reading = *slot.list_reading;
  std::optional<McpFault> fault = std::move(answer.fault);
  if (!fault) {
    auto step = reading.pages.Take(std::move(answer.result), answer.line_bytes);
    if (std::holds_alternative<ToolListPages::NextPage>(step)) return AskForListPage(slot);
    if (auto* failed = std::get_if<McpFault>(&step)) fault = std::move(*failed);
  }
  if (fault) {
    // The list said yes to before stays: what it named is still decided
    // call by call, and nothing new is offered.
    Log(alias + ": its changed list was not read (" + fault->message +
        "); the list it gave before holds");
    slot.list_reading.reset();
    return;
  }
  std::vector<nlohmann::ordered_json> tools = std::move(reading.pages.tools());
  const bool changed_again = reading.changed_again;
  slot.list_reading.reset();
  Json params = {{"alias", alias}, {"tools", Json(tools)}};
  Json fields =
      tools_->TakeList(alias, ComputeDigest(*slot.opened.declaration).hex, std::move(tools));
  for (auto& [name, value] : fields.items()) params[name] = std::move(value);
  if (!output_.Send(NotificationMessage("server/toolsChanged", std::move(params)))) {
    Log(alias +
        ": server/toolsChanged was dropped: written to the session it is longer than 16 MiB, "
        "which no session reads");
  }
  if (changed_again) ReadListAgain(slot);
}

void Supervisor::Released(const Json& id, RpcParams params) {
  std::optional<bool> released = params.Bool("released", true);
  if (params.problem()) return RespondError(id, *params.problem());
  tools_->SetReleased(*released);
  Respond(id, {{"released", *released}});
}

void Supervisor::OfferedTools(const Json& id, RpcParams params) {
  Json servers = params.Any("servers");
  if (params.problem()) return RespondError(id, *params.problem());
  std::optional<std::vector<std::string>> aliases;
  if (servers.is_array()) {
    aliases.emplace();
    for (const Json& alias : servers) {
      if (!alias.is_string()) {
        return RespondError(
            id, Refusal(kRpcInvalidParams, "params.servers must be a list of aliases, or \"all\""));
      }
      if (!slots_.contains(alias.get<std::string>())) {
        return RespondError(id,
                            Refusal(kRpcWrongState, QuoteLine(alias.get<std::string>(), 80) +
                                                        " is not a server this session asked for"));
      }
      aliases->push_back(alias.get<std::string>());
    }
  } else if (!servers.is_null() && servers != "all") {
    return RespondError(
        id, Refusal(kRpcInvalidParams, "params.servers must be a list of aliases, or \"all\""));
  }
  Respond(id, {{"tools", tools_->Offered(aliases)}});
}

}  // namespace bravebot
