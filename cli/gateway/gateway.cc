#include "cli/gateway/gateway.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <cctype>
#include <chrono>
#include <iostream>
#include <utility>

#include "base/version.h"
#include "cli/gateway/flows.h"
#include "supervisor/mcp/mcp_answers.h"
#include "supervisor/policy/settings_writers.h"

namespace bravebot {
namespace {

// Requests of the client and of servers carried at once; past it, a request
// is refused at once rather than given a coroutine.
constexpr std::size_t kMostWorkers = 64;
// Of those, the requests servers send the client: no server can take the
// room the client's own requests need.
constexpr std::size_t kMostServerRequests = 16;
// How long closing waits for the supervisor to stop every server (each has
// 2 s, all at once) before the gateway ends and the supervisor sees its
// input end, which stops them too.
constexpr auto kLongestClose = std::chrono::seconds(10);
// How long a client that declared roots has to list them before the session
// opens in the directory the gateway was started in.
constexpr auto kRootsWait = std::chrono::seconds(10);

std::string Instructions() {
  return "bravebot-mcp gateway offers the tools of the MCP servers this directory's "
         ".bravebot settings ask for, each started confined by bravebot-mcp, each tool named "
         "ALIAS__TOOL. Every call may be put to the user first, and a refused call says why: "
         "do not retry it. The tool bravebot_status says which servers run here, which were "
         "left out, and why.";
}

// The path a file:// URI names, its %XX escapes decoded; empty for any other.
std::string PathOfFileUri(const std::string& uri) {
  const std::string scheme = "file://";
  if (uri.rfind(scheme, 0) != 0) return "";
  std::string encoded = uri.substr(scheme.size());
  if (encoded.rfind("localhost/", 0) == 0) encoded.erase(0, std::string("localhost").size());
  if (encoded.empty() || encoded[0] != '/') return "";
  std::string path;
  for (std::size_t i = 0; i < encoded.size(); ++i) {
    if (encoded[i] == '%' && i + 2 < encoded.size() &&
        std::isxdigit(static_cast<unsigned char>(encoded[i + 1])) != 0 &&
        std::isxdigit(static_cast<unsigned char>(encoded[i + 2])) != 0) {
      path += static_cast<char>(std::stoi(encoded.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      path += encoded[i];
    }
  }
  return path.find('\0') == std::string::npos ? path : "";
}

// The capabilities of the client that servers may use through it.
Json RelayedCapabilities(const Json& client) {
  Json relayed = Json::object();
  for (const char* name : {"roots", "sampling", "elicitation"}) {
    if (client.contains(name)) relayed[name] = client[name];
  }
  return relayed;
}

}  // namespace

Gateway::Gateway(boost::asio::io_context& io, GatewayOptions options, JsonRpcPeer& client,
                 JsonRpcPeer& supervisor)
    : io_(io),
      options_(std::move(options)),
      client_(client),
      supervisor_(supervisor),
      changed_(io.get_executor()) {}

int Gateway::Run() {
  client_.OnBacklogChanged([this] { UpdateHolds(); });
  supervisor_.OnBacklogChanged([this] { UpdateHolds(); });
  supervisor_.Start([this](Incoming message) { FromSupervisor(std::move(message)); },
                    [this] {
                      supervisor_ended_ = true;
                      Ending();
                    });
  client_.Start([this](Incoming message) { FromClient(std::move(message)); }, [this] { Ending(); });
  // Returns once both ends are read no more, what was to be written is
  // written or given up, and every flow has ended.
  io_.run();
  return ended_first_ ? 1 : 0;
}

void Gateway::Stop() {
  boost::asio::post(io_, [this] { Ending(); });
}

void Gateway::UpdateHolds() {
  // What either end is sent comes of what is read from both: while one does
  // not take it, neither is read, so the gateway holds at most the bound
  // and what one read brings. Ending, the supervisor is read still, for
  // its answer to session/close (which the stop sequence bounds in time).
  const bool backed_up = client_.backed_up() || supervisor_.backed_up();
  client_.HoldReading(backed_up || initializing_);
  supervisor_.HoldReading(backed_up && !ending_);
}

void Gateway::Ending() {
  if (ending_) return;
  ending_ = true;
  ended_first_ = supervisor_ended_;
  changed_.NotifyAll();
  UpdateHolds();
  SpawnFlow(io_.get_executor(), End());
}

Gateway::Flow Gateway::End() {
  // The supervisor stops every server (and what each started) and answers
  // once they have ended.
  if (!supervisor_ended_) {
    co_await supervisor_.CallWithin("session/close", nullptr, kLongestClose);
  } else {
    // The supervisor ended first: a flow its end answered (a call that
    // failed, bravebot_status) writes that answer before the client's
    // output closes, on the turn of the loop its answer was posted for.
    co_await boost::asio::post(io_, boost::asio::use_awaitable);
  }
  // Nothing more is written (what is queued is given a while to be read);
  // every request of ours still waiting, and any sent from now on, is
  // answered as ended, so the flows waiting on them end (a question nobody
  // will answer now); then nothing more is read, and no handler runs from
  // here on.
  supervisor_.CloseOutput();
  client_.CloseOutput();
  supervisor_.GiveUpWaiting();
  client_.GiveUpWaiting();
  client_.StopReading();
  supervisor_.StopReading();
}

bool Gateway::Spawn(Flow flow, bool for_a_server) {
  if (flows_ >= kMostWorkers || (for_a_server && server_flows_ >= kMostServerRequests)) {
    return false;
  }
  ++flows_;
  if (for_a_server) ++server_flows_;
  SpawnFlow(io_.get_executor(), std::move(flow), [this, for_a_server] {
    --flows_;
    if (for_a_server) --server_flows_;
  });
  return true;
}

void Gateway::FromClient(Incoming message) {
  const std::string method = message.message["method"];
  const Json params = message.message.value("params", Json::object());
  if (!message.is_request()) {
    if (method == "notifications/initialized") Initialized();
    if (method == "notifications/cancelled") Cancelled(params);
    if (method == "notifications/progress") ProgressToServer(params);
    if (method == "notifications/roots/list_changed") Spawn(RootsChanged());
    return;
  }
  if (method == "initialize") return Initialize(message);
  if (method == "ping" || method == "logging/setLevel")
    return client_.Reply(message.id_text(), "{}");
  if (protocol_version_.empty()) {
    return client_.ReplyError(message.id_text(), -32600,
                              "send initialize first: bravebot-mcp gateway is an MCP server");
  }
  if (method == "tools/call") return CallTool(message);
  if (method != "tools/list") {
    return client_.ReplyError(message.id_text(), -32601,
                              "bravebot-mcp gateway has no method " + method +
                                  ": it offers tools (docs/gateway.md says why no more)");
  }
  if (!Spawn(ListTools(message))) {
    client_.ReplyError(message.id_text(), -32603,
                       "bravebot-mcp gateway carries 64 requests at once already: send it again "
                       "once one is answered");
  }
}

Gateway::Flow Gateway::RootsChanged() {
  GatewayServers* servers = co_await WaitOpened();
  if (servers == nullptr) co_return;  // ending before the session opened
  for (const std::string& alias : servers->Aliases()) {
    supervisor_.Tell("server/notify",
                     {{"alias", alias}, {"method", "notifications/roots/list_changed"}});
  }
}

void Gateway::Initialize(const Incoming& request) {
  const Json params = request.message.value("params", Json::object());
  const std::string asked = params.value("protocolVersion", "");
  const bool known = std::find(kMcpAcceptedVersions.begin(), kMcpAcceptedVersions.end(), asked) !=
                     kMcpAcceptedVersions.end();
  if (!protocol_version_.empty()) {
    return client_.ReplyError(request.id_text(), -32600, "initialize comes once");
  }
  protocol_version_ = known ? asked : kMcpProtocolVersion;
  if (params.contains("capabilities") && params["capabilities"].is_object()) {
    client_capabilities_ = params["capabilities"];
  }
  const std::string directory = !options_.directory.empty()              ? options_.directory
                                : client_capabilities_.contains("roots") ? ""
                                                                         : options_.cwd;
  // The client's next message is read once this one is answered, which
  // waits for the session to open where the directory is known now.
  initializing_ = true;
  UpdateHolds();
  SpawnFlow(io_.get_executor(), OpenThenAnswer(request, directory), [this] {
    initializing_ = false;
    UpdateHolds();
  });
}

Gateway::Flow Gateway::OpenThenAnswer(Incoming request, std::string directory) {
  // Opening reads files and starts nothing: where the directory is known
  // now, its notes are said in the instructions.
  std::string instructions = Instructions();
  if (!directory.empty()) {
    co_await Open(directory);
    for (const std::string& note : open_notes_) instructions += "\n\n" + note;
  }
  Json result = {
      {"protocolVersion", protocol_version_},
      {"capabilities", {{"tools", {{"listChanged", true}}}, {"logging", Json::object()}}},
      {"serverInfo", {{"name", "bravebot-mcp gateway"}, {"version", BravebotVersion()}}},
      {"instructions", instructions}};
  client_.Reply(request.id_text(), result.dump(-1, ' ', false, Json::error_handler_t::replace));
}

void Gateway::Initialized() {
  initialized_ = true;
  changed_.NotifyAll();
  if (!opened_ && directory_.empty() && !protocol_version_.empty()) Spawn(ListRoots());
}

Gateway::Flow Gateway::ListRoots() {
  Answer roots = co_await client_.CallWithin("roots/list", nullptr, kRootsWait);
  std::string directory;
  const Json& result = roots.is_error() ? Json() : roots.message["result"];
  if (result.is_object() && result.contains("roots") && result["roots"].is_array()) {
    for (const Json& root : result["roots"]) {
      if (!root.is_object() || !root.contains("uri") || !root["uri"].is_string()) continue;
      directory = PathOfFileUri(root["uri"]);
      if (!directory.empty()) break;
    }
  }
  co_await Open(directory.empty() ? options_.cwd : directory);
}

Gateway::Flow Gateway::Open(std::string given_directory) {
  // Resolved as the directory a command run there sees it, so that what
  // `bravebot-mcp approve` records at a terminal there is for this project.
  const std::string directory = ResolveCheckoutDirectory(given_directory);
  if (!directory_.empty()) co_return;
  directory_ = directory;
  const Json capabilities = RelayedCapabilities(client_capabilities_);
  const bool can_ask =
      TakesFormElicitation(client_capabilities_) && protocol_version_ >= "2025-06-18";
  // Each message's params are made apart from the co_await that sends them:
  // GCC 12 does not compile a braced list inside a co_await's expression.
  Json params = {{"directory", directory},
                 {"mode", can_ask ? "plain" : "no-terminal"},
                 {"incognito", options_.incognito},
                 {"skipPermissions", options_.skip_permissions},
                 {"capabilities", capabilities},
                 {"builtinTools", {kStatusToolName}},
                 {"startupTimeoutSeconds", options_.startup_timeout_seconds}};
  Answer opened = co_await supervisor_.Call("session/open", std::move(params));
  auto servers = std::make_unique<GatewayServers>(GatewayLink{
      io_.get_executor(), supervisor_, client_,
      [this](Question question) { return Ask(std::move(question)); }, can_ask, directory});
  std::vector<std::string> notes;
  if (opened.is_error()) {
    notes.push_back(opened.ended ? "bravebot-supervisor ended before the session opened: its "
                                   "log says why"
                                 : opened.message["error"].value("message", ""));
  } else {
    for (const Json& note : opened.message["result"]["notes"]) notes.push_back(note);
  }
  servers_ = std::move(servers);
  servers_->Opened(opened.is_error() ? Json{{"notes", notes}, {"servers", Json::array()}}
                                     : opened.message["result"]);
  open_notes_ = std::move(notes);
  opened_ = true;
  changed_.NotifyAll();
}

boost::asio::awaitable<GatewayServers*> Gateway::WaitOpened() {
  co_await changed_.Wait([this] { return opened_ || ending_; });
  co_return opened_ ? servers_.get() : nullptr;
}

boost::asio::awaitable<std::string> Gateway::Ask(Question question) {
  // Nothing but ping and logging goes to a client before it said it is
  // initialized; and one question at a time.
  co_await changed_.Wait([this] { return (initialized_ || ending_) && !asking_; });
  asking_ = true;
  struct Turn {
    Gateway& gateway;
    ~Turn() {
      gateway.asking_ = false;
      gateway.changed_.NotifyAll();
    }
  } turn{*this};
  const Answer answer =
      co_await client_.Call("elicitation/create", ElicitationParams(question, protocol_version_));
  co_return AnswerOf(question, answer);
}

Gateway::Flow Gateway::ListTools(Incoming request) {
  GatewayServers* servers = co_await WaitOpened();
  if (servers == nullptr) co_return;  // ending before the session opened
  co_await servers->PutQuestions();
  client_.Reply(request.id_text(),
                servers->ToolsListResult().dump(-1, ' ', false, Json::error_handler_t::replace));
}

void Gateway::FromSupervisor(Incoming message) {
  const std::string method = message.message["method"];
  const Json& params = message.message["params"];
  const std::string alias = params.value("alias", "");
  if (method == "server/stderr") {
    // Escaped by the supervisor; after its alias, so no line passes for ours.
    std::cerr << alias + ": " + params.value("line", "") + "\n" << std::flush;
  } else if (method == "server/exited" || method == "server/toolsChanged") {
    // Of a server started once the session opened: servers_ is there.
    if (servers_ == nullptr) return;
    if (method == "server/exited") servers_->Exited(params);
    if (method == "server/toolsChanged") servers_->ToolsChanged(params);
  } else if (method == "server/message" && params.contains("message") &&
             params["message"].is_object()) {
    const Json& relayed = params["message"];
    if (relayed.contains("id")) {
      if (!Spawn(RelayServerRequest(alias, relayed), /*for_a_server=*/true)) {
        supervisor_.Tell("server/reply", {{"alias", alias},
                                          {"id", relayed["id"]},
                                          {"error",
                                           {{"code", -32603},
                                            {"message",
                                             "the gateway carries 16 requests of servers at once "
                                             "already: send it again once one is answered"}}}});
      }
    } else {
      RelayServerNotification(alias, relayed);
    }
  }
}

}  // namespace bravebot
