// bravebot-mcp gateway: one MCP server, on our standard input and output,
// that fronts a bravebot-supervisor session for an agent that runs its MCP
// servers itself (Claude Code, Codex, Cursor, VS Code). It is a front end
// like `bravebot-mcp session`: it speaks only the supervisor's protocol, and
// puts the supervisor's questions to the person through the client's
// elicitation. docs/gateway.md says what it offers and why.
//
// A request that waits for a person or for the servers (tools/list, which
// puts the questions; a call whose question is put; a request a server
// sends the client) is carried on a thread of its own, so that its flow (a
// call, its question, the call again) reads as the protocol does. A call
// that needs no question is carried on the two reading threads alone
// (json_rpc_peer.h): it is the gateway's most frequent message, and each
// thread it crosses costs a wake-up (docs/performance.md, The gateway).
#ifndef BRAVEBOT_CLI_GATEWAY_GATEWAY_H_
#define BRAVEBOT_CLI_GATEWAY_GATEWAY_H_

#include <atomic>
#include <condition_variable>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cli/gateway/gateway_servers.h"
#include "cli/gateway/json_rpc_peer.h"
#include "cli/gateway/questions.h"

namespace bravebot {

// The longest progress token kept, of a client's call or of a server's
// request: a token is a short id, and no peer grows what the gateway holds.
inline constexpr std::size_t kLongestProgressToken = 256;

struct GatewayOptions {
  std::string directory;  // --dir, or empty: the client's first root, else `cwd`
  std::string cwd;
  bool incognito = false;
  bool skip_permissions = false;
};

class Gateway {
 public:
  // Speaks MCP on `client`, and the protocol on `supervisor`.
  Gateway(GatewayOptions options, JsonRpcPeer& client, JsonRpcPeer& supervisor);
  ~Gateway();

  // Reads both ends until the client's input ends, `Stop` is called or the
  // supervisor ends; then closes the session. 0 where it closed as asked.
  int Run();
  // From another thread (a signal's): ends Run as the end of input does.
  void Stop();

 private:
  // What came from the client.
  void FromClient(Incoming message);
  void Initialize(const Incoming& request);
  void Initialized();
  void ListTools(const Incoming& request);
  void CallTool(const Incoming& request);
  void Cancelled(const Json& params);
  void ProgressToServer(const Json& params);

  // What came from the supervisor: a server's lines, ends and messages.
  void FromSupervisor(Incoming message);
  void RelayServerRequest(const std::string& alias, const Json& message);
  void RelayServerNotification(const std::string& alias, const Json& message);
  // Whether the client declared elicitation in `elicitation_mode` ("url").
  bool ClientTakes(const std::string& elicitation_mode);

  // session/open for `directory`, once.
  void Open(const std::string& directory);
  // The session's servers once it opened; null where the gateway is ending
  // before it did.
  GatewayServers* WaitOpened();
  std::string Ask(const Question& question);
  // A client's call of a server's tool, from its request to its answer:
  // sent, answered on the supervisor's reading thread where it ran or was
  // refused, and carried on a thread of its own only where it waits for a
  // question.
  struct CallInFlight {
    std::string id;  // the client's, as its text
    ServerTool tool;
    Json call;          // tool/call's params, its answer to the question once put
    std::string token;  // the progress token the client gave it, if any
  };
  void StartCall(const Incoming& request);
  void SendCall(const std::shared_ptr<CallInFlight>& flight);
  void Decided(const std::shared_ptr<CallInFlight>& flight, const Answer& answer);
  void Asked(const std::shared_ptr<CallInFlight>& flight, const Answer& answer);
  std::string RefusalText(const CallInFlight& flight, const Answer& answer);
  // Answers the call with `reply` (a result's text), unless it was
  // cancelled; "" answers nothing.
  void Finish(const std::string& id, const std::string& token, const std::string& reply);
  // With mutex_ held: the call is no longer in flight. True where the
  // client cancelled it.
  bool Forget(const std::string& id, const std::string& token);
  // Runs `work` on a thread of its own, joined when it is done or the
  // gateway ends; false, running nothing, where too many run already.
  bool Spawn(std::function<void()> work, bool for_a_server = false);
  void End();

  GatewayOptions options_;
  JsonRpcPeer& client_;
  JsonRpcPeer& supervisor_;
  std::unique_ptr<GatewayServers> servers_;

  std::mutex mutex_;
  std::condition_variable changed_;
  bool ending_ = false;
  bool opened_ = false;
  bool initialized_ = false;  // the client's notifications/initialized came
  bool released_ = false;     // a first result went to the client
  bool supervisor_ended_ = false;
  std::string protocol_version_;
  Json client_capabilities_ = Json::object();
  std::string directory_;
  std::vector<std::string> open_notes_;
  // The client's calls in flight, by their id's text: the supervisor's id of
  // the request each waits on, for a cancel.
  std::map<std::string, std::int64_t> calls_;
  std::map<std::string, bool> cancelled_;
  // Progress tokens of the client's calls in flight, and the server called.
  std::map<std::string, std::string> call_tokens_;
  // Progress tokens of requests relayed to the client, and their server.
  std::map<std::string, std::string> progress_tokens_;
  // Requests relayed to the client, by the supervisor's number: ours.
  std::map<std::string, std::int64_t> relayed_;
  std::mutex ask_;  // one question at a time

  struct Worker {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;
    bool for_a_server = false;  // a server's request relayed to the client
  };
  std::mutex threads_mutex_;
  std::list<Worker> workers_;
  bool spawning_ = true;  // false once the gateway is being destroyed
};

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_GATEWAY_GATEWAY_H_
