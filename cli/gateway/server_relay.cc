// What passes between a server and the client while the gateway runs:
// a server's requests (roots/list, sampling/createMessage,
// elicitation/create) passed to a client that declared it takes them, and
// answered -32601 for one that did not; progress, logs and cancellations
// both ways, each id mapped to the one its side knows.
#include "base/shown_text.h"
#include "cli/gateway/gateway.h"
#include "cli/gateway/shown_words.h"

namespace bravebot {
namespace {

// The capability a client declares for a server's request to reach it.
std::string CapabilityFor(const std::string& method) {
  if (method == "roots/list") return "roots";
  if (method == "sampling/createMessage") return "sampling";
  if (method == "elicitation/create") return "elicitation";
  return "";
}

}  // namespace

void Gateway::ProgressToServer(const Json& params) {
  if (!params.contains("progressToken")) return;
  auto found = progress_tokens_.find(params["progressToken"].dump());
  if (found == progress_tokens_.end()) return;
  supervisor_.Tell(
      "server/notify",
      {{"alias", found->second}, {"method", "notifications/progress"}, {"params", params}});
}

Gateway::Flow Gateway::RelayServerRequest(std::string alias, Json message) {
  const std::string method = message.value("method", "");
  const Json& id = message["id"];
  auto reply = [&](const char* member, Json value) {
    supervisor_.Tell("server/reply", {{"alias", alias}, {"id", id}, {member, std::move(value)}});
  };
  if (method == "ping") co_return reply("result", Json::object());
  const std::string capability = CapabilityFor(method);
  const bool declared = !capability.empty() && client_capabilities_.contains(capability);
  // Nothing but ping and logging goes to a client before it said it is
  // initialized.
  if (declared) co_await changed_.Wait([this] { return initialized_ || ending_; });
  if (!declared) {
    co_return reply("error",
                    {{"code", -32601},
                     {"message", method +
                                     " is not relayed: the client of bravebot-mcp gateway "
                                     "declared no " +
                                     (capability.empty() ? "such capability" : capability)}});
  }
  Json params = message.value("params", Json::object());
  if (method == "elicitation/create") {
    const Json* mode = params.is_object() && params.contains("mode") ? &params["mode"] : nullptr;
    const Json* words =
        params.is_object() && params.contains("message") ? &params["message"] : nullptr;
    if (words == nullptr || !words->is_string() || (mode != nullptr && !mode->is_string())) {
      co_return reply("error", {{"code", -32602},
                                {"message", "elicitation/create takes a string message and mode"}});
    }
    if (mode != nullptr && *mode != "form" && !ClientTakes(mode->get<std::string>())) {
      co_return reply("error", {{"code", -32602},
                                {"message", "the client of bravebot-mcp gateway declared no " +
                                                EscapeControlCharacters(mode->get<std::string>()) +
                                                " elicitation"}});
    }
    // The person must know which server asks, and that it is not us: its
    // words follow our prefix on one line, escaped as every server's words
    // shown to a person are, so none can move the cursor of the terminal
    // the client draws in, or begin a line that passes for our question.
    params["message"] = alias + " asks: " + EscapeControlCharacters(words->get<std::string>());
    if (params.contains("requestedSchema")) EscapeShownWords(params["requestedSchema"]);
    // What the answer carries back as written cannot be escaped: a form
    // or url that holds a character no person should have drawn is refused.
    if (std::optional<std::string> unescapable = UnescapableWord(params)) {
      co_return reply(
          "error", {{"code", -32602},
                    {"message", "the client of bravebot-mcp gateway is not asked: " + *unescapable +
                                    " holds a control or invisible character"}});
    }
  }
  std::string token;
  if (params.is_object() && params.contains("_meta") && params["_meta"].is_object() &&
      params["_meta"].contains("progressToken")) {
    token = params["_meta"]["progressToken"].dump();
    // A token is a short id; a long one is not kept, so no server grows
    // what the gateway holds.
    // A token another server's request holds stays that server's.
    if (token.size() > kLongestProgressToken || !progress_tokens_.emplace(token, alias).second) {
      token.clear();
    }
  }
  // Our id is kept as it is sent, for the server's cancel to name it.
  const std::string relayed = alias + "\n" + id.dump();
  Answer answer = co_await client_.Call(method, params, relayed_[relayed]);
  relayed_.erase(relayed);
  if (!token.empty()) progress_tokens_.erase(token);
  if (answer.ended) {
    co_return reply("error", {{"code", -32603}, {"message", "the client went away first"}});
  }
  if (answer.message.contains("error") && answer.message["error"].is_object()) {
    co_return reply("error", answer.message["error"]);
  }
  reply("result", answer.message.value("result", Json::object()));
}

bool Gateway::ClientTakes(const std::string& elicitation_mode) {
  auto elicitation = client_capabilities_.find("elicitation");
  return elicitation != client_capabilities_.end() && elicitation->is_object() &&
         elicitation->contains(elicitation_mode);
}

void Gateway::RelayServerNotification(const std::string& alias, const Json& message) {
  const std::string method = message.value("method", "");
  Json params = message.value("params", Json::object());
  // Words a client may draw: escaped, as every server's words shown are; a
  // log's data whole, whatever its shape.
  if (params.is_object() && params.contains("message") && params["message"].is_string()) {
    params["message"] = EscapeControlCharacters(params["message"].get<std::string>());
  }
  if (params.is_object() && params.contains("data")) params["data"] = EscapedData(params["data"]);
  if (method == "notifications/progress") {
    auto call = params.is_object() && params.contains("progressToken")
                    ? call_tokens_.find(params["progressToken"].dump())
                    : call_tokens_.end();
    if (call == call_tokens_.end() || call->second != alias) return;
    client_.Notify(method, params);
  } else if (method == "notifications/message" && params.is_object()) {
    // The client shows a log's logger: it names the server.
    const std::string logger = params.value("logger", "");
    params["logger"] = logger.empty() ? alias : alias + "/" + EscapeControlCharacters(logger);
    client_.Notify(method, params);
  } else if (method == "notifications/cancelled" && params.is_object() &&
             params.contains("requestId")) {
    auto found = relayed_.find(alias + "\n" + params["requestId"].dump());
    if (found == relayed_.end()) return;
    params["requestId"] = found->second;
    client_.Notify(method, params);
  }
}

}  // namespace bravebot
