// bravebot-mcp gateway: one MCP server, on our standard input and output,
// that fronts a bravebot-supervisor session for an agent that runs its MCP
// servers itself (Claude Code, Codex, Cursor, VS Code). It is a front end
// like `bravebot-mcp session`: it speaks only the supervisor's protocol, and
// puts the supervisor's questions to the person through the client's
// elicitation. docs/gateway.md says what it offers and why.
//
// It runs on one Boost.Asio event loop, on one thread: both ends are read
// there (json_rpc_peer.h), and nothing locks. A request that waits for a
// person or for the servers (tools/list, which puts the questions; a call
// whose question is put; a request a server sends the client) is a
// coroutine of its own, so that its flow (a call, its question, the call
// again) reads as the protocol does. A call that needs no question is
// carried by the two ends' reading alone, its answer taken as it is read:
// it is the gateway's most frequent message (docs/performance.md, The
// gateway).
#ifndef BRAVEBOT_CLI_GATEWAY_GATEWAY_H_
#define BRAVEBOT_CLI_GATEWAY_GATEWAY_H_

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/gateway/gateway_servers.h"
#include "cli/gateway/json_rpc_peer.h"
#include "cli/gateway/loop_condition.h"
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
  int startup_timeout_seconds = 30;  // --startup-timeout: how long a server has to start
};

class Gateway {
 public:
  // Speaks MCP on `client`, and the protocol on `supervisor`, both on `io`.
  Gateway(boost::asio::io_context& io, GatewayOptions options, JsonRpcPeer& client,
          JsonRpcPeer& supervisor);

  // Runs the loop: reads both ends until the client's input ends, `Stop` is
  // called or the supervisor ends; then closes the session, and returns
  // once every flow has ended. 0 where it closed as asked.
  int Run();
  // From any thread (a signal's): ends Run as the end of input does.
  void Stop();

 private:
  using Flow = boost::asio::awaitable<void>;

  // What came from the client.
  void FromClient(Incoming message);
  void Initialize(const Incoming& request);
  Flow OpenThenAnswer(Incoming request, std::string directory);
  void Initialized();
  Flow ListRoots();
  Flow ListTools(Incoming request);
  void CallTool(const Incoming& request);
  void Cancelled(const Json& params);
  void ProgressToServer(const Json& params);
  Flow RootsChanged();

  // What came from the supervisor: a server's lines, ends and messages.
  void FromSupervisor(Incoming message);
  Flow RelayServerRequest(std::string alias, Json message);
  void RelayServerNotification(const std::string& alias, const Json& message);
  // Whether the client declared elicitation in `elicitation_mode` ("url").
  bool ClientTakes(const std::string& elicitation_mode);

  // session/open for `directory`, once.
  Flow Open(std::string directory);
  // The session's servers once it opened; null where the gateway is ending
  // before it did.
  boost::asio::awaitable<GatewayServers*> WaitOpened();
  boost::asio::awaitable<std::string> Ask(Question question);
  // A client's call of a server's tool, from its request to its answer:
  // sent, answered as the supervisor's answer is read where it ran or was
  // refused, and carried by a coroutine of its own only where it waits for a
  // question.
  struct CallInFlight {
    std::string id;  // the client's, as its text
    ServerTool tool;
    Json call;          // tool/call's params, its answer to the question once put
    std::string token;  // the progress token the client gave it, if any
  };
  Flow CallWhenOpened(Incoming request);
  void StartCall(const Incoming& request);
  Flow Status(Incoming request);
  void SendCall(const std::shared_ptr<CallInFlight>& flight);
  void Decided(const std::shared_ptr<CallInFlight>& flight, const Answer& answer);
  Flow Asked(std::shared_ptr<CallInFlight> flight, Answer answer);
  Flow Released(std::shared_ptr<CallInFlight> flight, std::string result);
  std::string RefusalText(const CallInFlight& flight, const Answer& answer);
  // Answers the call with `reply` (a result's text), unless it was
  // cancelled; "" answers nothing.
  void Finish(const std::string& id, const std::string& token, const std::string& reply);
  // The call is no longer in flight. True where the client cancelled it.
  bool Forget(const std::string& id, const std::string& token);
  // Runs `flow` as a coroutine of its own; false, running nothing, where too
  // many run already.
  bool Spawn(Flow flow, bool for_a_server = false);
  // The stop sequence, begun once, whatever asked for it.
  void Ending();
  Flow End();
  // Reading waits while either end does not take what is written to it, and
  // the client's while its initialize is being answered.
  void UpdateHolds();

  boost::asio::io_context& io_;
  GatewayOptions options_;
  JsonRpcPeer& client_;
  JsonRpcPeer& supervisor_;
  std::unique_ptr<GatewayServers> servers_;

  // Notified whenever any of the flags below changes.
  LoopCondition changed_;
  bool ending_ = false;
  bool opened_ = false;
  bool initialized_ = false;   // the client's notifications/initialized came
  bool initializing_ = false;  // its initialize waits for the session to open
  bool released_ = false;      // a first result went to the client
  bool supervisor_ended_ = false;
  bool ended_first_ = false;  // the supervisor ended before it was asked to
  bool asking_ = false;       // a question is put: one at a time
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
  // The flows Spawn runs now, and of them servers' requests.
  std::size_t flows_ = 0;
  std::size_t server_flows_ = 0;
};

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_GATEWAY_GATEWAY_H_
