#include "cli/gateway/gateway.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <iostream>
#include <utility>

#include "base/version.h"
#include "supervisor/mcp/mcp_answers.h"
#include "supervisor/policy/settings_writers.h"

namespace bravebot {
namespace {

// Requests of the client and of servers carried at once; past it, a request
// is refused at once rather than given a thread.
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

Gateway::Gateway(GatewayOptions options, JsonRpcPeer& client, JsonRpcPeer& supervisor)
    : options_(std::move(options)), client_(client), supervisor_(supervisor) {}

Gateway::~Gateway() {
  std::list<Worker> workers;
  {
    std::lock_guard lock(threads_mutex_);
    spawning_ = false;  // a worker ending now starts no other
    workers.swap(workers_);
  }
  for (Worker& worker : workers) worker.thread.join();
  servers_.reset();  // joins its own threads
}

int Gateway::Run() {
  supervisor_.Start([this](Incoming message) { FromSupervisor(std::move(message)); },
                    [this] {
                      {
                        std::lock_guard lock(mutex_);
                        supervisor_ended_ = true;
                      }
                      Stop();
                    });
  client_.Start([this](Incoming message) { FromClient(std::move(message)); }, [this] { Stop(); });
  bool ended_first = false;  // the supervisor ended before it was asked to
  {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return ending_; });
    ended_first = supervisor_ended_;
  }
  End();
  return ended_first ? 1 : 0;
}

void Gateway::Stop() {
  std::lock_guard lock(mutex_);
  ending_ = true;
  changed_.notify_all();
}

void Gateway::End() {
  bool supervisor_ended = false;
  {
    std::lock_guard lock(mutex_);
    supervisor_ended = supervisor_ended_;
  }
  // The supervisor stops every server (and what each started) and answers
  // once they have ended.
  if (!supervisor_ended) supervisor_.Call("session/close", nullptr).wait_for(kLongestClose);
  // Nothing more is written (a writer waiting for room gives up); every
  // request of ours still waiting, and any sent from now on, is answered as
  // ended, so the flows waiting on them end (a question nobody will answer
  // now); then nothing more is read, and no handler runs from here on.
  supervisor_.CloseOutput();
  client_.CloseOutput();
  supervisor_.GiveUpWaiting();
  client_.GiveUpWaiting();
  client_.StopReading();
  supervisor_.StopReading();
}

bool Gateway::Spawn(std::function<void()> work, bool for_a_server) {
  std::lock_guard lock(threads_mutex_);
  for (auto worker = workers_.begin(); worker != workers_.end();) {
    if (*worker->done) {
      worker->thread.join();
      worker = workers_.erase(worker);
    } else {
      ++worker;
    }
  }
  const auto servers = std::count_if(workers_.begin(), workers_.end(),
                                     [](const Worker& worker) { return worker.for_a_server; });
  if (!spawning_ || workers_.size() >= kMostWorkers ||
      (for_a_server && static_cast<std::size_t>(servers) >= kMostServerRequests)) {
    return false;
  }
  auto done = std::make_shared<std::atomic<bool>>(false);
  workers_.push_back({std::thread([work = std::move(work), done] {
                        try {
                          work();
                        } catch (const nlohmann::json::exception& wrong) {
                          // A member of another type than MCP gives it, met
                          // past the checks: this request is given up, and
                          // the gateway goes on.
                          std::cerr
                              << "bravebot-mcp gateway: a message was given up: " << wrong.what()
                              << "\n";
                        }
                        *done = true;
                      }),
                      done, for_a_server});
  return true;
}

void Gateway::FromClient(Incoming message) {
  const std::string method = message.message["method"];
  const Json params = message.message.value("params", Json::object());
  if (!message.is_request()) {
    if (method == "notifications/initialized") Initialized();
    if (method == "notifications/cancelled") Cancelled(params);
    if (method == "notifications/progress") ProgressToServer(params);
    if (method == "notifications/roots/list_changed") {
      Spawn([this] {
        GatewayServers* servers = WaitOpened();
        if (servers == nullptr) return;  // ending before the session opened
        for (const std::string& alias : servers->Aliases()) {
          supervisor_.Call("server/notify",
                           {{"alias", alias}, {"method", "notifications/roots/list_changed"}});
        }
      });
    }
    return;
  }
  if (method == "initialize") return Initialize(message);
  if (method == "ping" || method == "logging/setLevel")
    return client_.Reply(message.id_text(), "{}");
  {
    std::lock_guard lock(mutex_);
    if (protocol_version_.empty()) {
      return client_.ReplyError(message.id_text(), -32600,
                                "send initialize first: bravebot-mcp gateway is an MCP server");
    }
  }
  if (method == "tools/call") return CallTool(message);
  std::function<void()> work;
  if (method == "tools/list") work = [this, message] { ListTools(message); };
  if (!work) {
    return client_.ReplyError(message.id_text(), -32601,
                              "bravebot-mcp gateway has no method " + method +
                                  ": it offers tools (docs/gateway.md says why no more)");
  }
  if (!Spawn(std::move(work))) {
    client_.ReplyError(message.id_text(), -32603,
                       "bravebot-mcp gateway carries 64 requests at once already: send it again "
                       "once one is answered");
  }
}

void Gateway::Initialize(const Incoming& request) {
  const Json params = request.message.value("params", Json::object());
  const std::string asked = params.value("protocolVersion", "");
  const bool known = std::find(kMcpAcceptedVersions.begin(), kMcpAcceptedVersions.end(), asked) !=
                     kMcpAcceptedVersions.end();
  std::string directory;
  {
    std::lock_guard lock(mutex_);
    if (!protocol_version_.empty()) {
      return client_.ReplyError(request.id_text(), -32600, "initialize comes once");
    }
    protocol_version_ = known ? asked : kMcpProtocolVersion;
    if (params.contains("capabilities") && params["capabilities"].is_object()) {
      client_capabilities_ = params["capabilities"];
    }
    directory = !options_.directory.empty()              ? options_.directory
                : client_capabilities_.contains("roots") ? ""
                                                         : options_.cwd;
  }
  // Opening reads files and starts nothing: where the directory is known
  // now, its notes are said in the instructions.
  std::string instructions = Instructions();
  if (!directory.empty()) {
    Open(directory);
    std::lock_guard lock(mutex_);
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
  bool ask_roots = false;
  {
    std::lock_guard lock(mutex_);
    initialized_ = true;
    changed_.notify_all();
    ask_roots = !opened_ && directory_.empty() && !protocol_version_.empty();
  }
  if (!ask_roots) return;
  Spawn([this] {
    std::future<Answer> listed = client_.Call("roots/list", nullptr);
    std::string directory;
    if (listed.wait_for(kRootsWait) == std::future_status::ready) {
      Answer roots = listed.get();
      const Json& result = roots.is_error() ? Json() : roots.message["result"];
      if (result.is_object() && result.contains("roots") && result["roots"].is_array()) {
        for (const Json& root : result["roots"]) {
          if (!root.is_object() || !root.contains("uri") || !root["uri"].is_string()) continue;
          directory = PathOfFileUri(root["uri"]);
          if (!directory.empty()) break;
        }
      }
    }
    Open(directory.empty() ? options_.cwd : directory);
  });
}

void Gateway::Open(const std::string& given_directory) {
  // Resolved as the directory a command run there sees it, so that what
  // `bravebot-mcp approve` records at a terminal there is for this project.
  const std::string directory = ResolveCheckoutDirectory(given_directory);
  Json capabilities;
  bool can_ask = false;
  {
    std::lock_guard lock(mutex_);
    if (!directory_.empty()) return;
    directory_ = directory;
    capabilities = RelayedCapabilities(client_capabilities_);
    can_ask = TakesFormElicitation(client_capabilities_) && protocol_version_ >= "2025-06-18";
  }
  Answer opened = supervisor_
                      .Call("session/open", {{"directory", directory},
                                             {"mode", can_ask ? "plain" : "no-terminal"},
                                             {"incognito", options_.incognito},
                                             {"skipPermissions", options_.skip_permissions},
                                             {"capabilities", capabilities},
                                             {"builtinTools", {kStatusToolName}}})
                      .get();
  auto servers = std::make_unique<GatewayServers>(
      GatewayLink{supervisor_, client_, [this](const Question& question) { return Ask(question); },
                  can_ask, directory});
  std::vector<std::string> notes;
  if (opened.is_error()) {
    notes.push_back(opened.ended ? "bravebot-supervisor ended before the session opened: its "
                                   "log says why"
                                 : opened.message["error"].value("message", ""));
  } else {
    for (const Json& note : opened.message["result"]["notes"]) notes.push_back(note);
  }
  servers->Opened(opened.is_error() ? Json{{"notes", notes}, {"servers", Json::array()}}
                                    : opened.message["result"]);
  std::lock_guard lock(mutex_);
  servers_ = std::move(servers);
  open_notes_ = std::move(notes);
  opened_ = true;
  changed_.notify_all();
}

GatewayServers* Gateway::WaitOpened() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return opened_ || ending_; });
  return opened_ ? servers_.get() : nullptr;
}

std::string Gateway::Ask(const Question& question) {
  std::string version;
  {
    std::unique_lock lock(mutex_);
    // Nothing but ping and logging goes to a client before it said it is
    // initialized.
    changed_.wait(lock, [this] { return initialized_ || ending_; });
    version = protocol_version_;
  }
  std::lock_guard one_at_a_time(ask_);
  return AnswerOf(question,
                  client_.Call("elicitation/create", ElicitationParams(question, version)).get());
}

void Gateway::ListTools(const Incoming& request) {
  GatewayServers* servers = WaitOpened();
  if (servers == nullptr) return;  // ending before the session opened
  servers->PutQuestions();
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
    GatewayServers* servers = WaitOpened();
    if (servers == nullptr) return;
    if (method == "server/exited") servers->Exited(params);
    if (method == "server/toolsChanged") servers->ToolsChanged(params);
  } else if (method == "server/message" && params.contains("message") &&
             params["message"].is_object()) {
    const Json& relayed = params["message"];
    if (relayed.contains("id")) {
      if (!Spawn([this, alias, relayed] { RelayServerRequest(alias, relayed); },
                 /*for_a_server=*/true)) {
        supervisor_.Call("server/reply", {{"alias", alias},
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
