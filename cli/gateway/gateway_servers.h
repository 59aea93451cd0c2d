// The servers of the gateway's session, as the supervisor decides them: the
// questions about each (the server, then its tool list) put through the
// client, the starts, and the tools offered now under the names clients
// take. What is offered changes as servers start late, lists change and
// servers end, and each change is told to the client (list_changed).
#ifndef BRAVEBOT_CLI_GATEWAY_GATEWAY_SERVERS_H_
#define BRAVEBOT_CLI_GATEWAY_GATEWAY_SERVERS_H_

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/gateway/json_rpc_peer.h"
#include "cli/gateway/loop_condition.h"
#include "cli/gateway/questions.h"
#include "cli/gateway/tool_names.h"

namespace bravebot {

// The gateway's own tool: what runs, what was left out and why.
inline constexpr char kStatusToolName[] = "bravebot_status";

// What the servers need of the rest of the gateway.
struct GatewayLink {
  boost::asio::any_io_executor executor;  // the gateway's loop
  JsonRpcPeer& supervisor;
  JsonRpcPeer& client;
  // Puts a question to the person through the client; its answer as typed.
  std::function<boost::asio::awaitable<std::string>(Question)> ask;
  bool can_ask = false;   // the client takes elicitation
  std::string directory;  // the session's, named in the terminal commands
};

class GatewayServers {
 public:
  explicit GatewayServers(GatewayLink link)
      : link_(std::move(link)), starts_changed_(link_.executor), questions_(link_.executor) {}

  // Takes session/open's result: the notes, and each server's state; starts
  // those that start without a question.
  void Opened(const Json& result);
  // Puts every question waiting (each server asked about, then each list
  // nobody said yes to), having waited for the servers still starting.
  boost::asio::awaitable<void> PutQuestions();
  // tools/list's result: the gateway's own tool, then what is offered.
  Json ToolsListResult();
  // The server and tool a name offered stands for.
  std::optional<ServerTool> Find(const std::string& name);
  // bravebot_status's text.
  boost::asio::awaitable<std::string> StatusText();

  // Every server the session asked for.
  std::vector<std::string> Aliases();
  bool can_ask() const { return link_.can_ask; }

  // The supervisor's notifications.
  void ToolsChanged(const Json& params);
  void Exited(const Json& params);

 private:
  struct Server {
    std::string state;                  // session/open's, then "running", "failed", "ended"
    std::string question;               // for "ask"
    Json tools = Json::array();         // the modelTools offered now
    std::optional<Json> list_question;  // {offer, toolsDigest}: put at the next tools/list
    std::string note;                   // why it offers nothing, where it does not
  };

  void Start(const std::string& alias);
  // The start's answer, a redirect question put first where it is one.
  boost::asio::awaitable<void> Started(std::string alias, Answer answer);
  void TakeList(const std::string& alias, const Json& list);
  boost::asio::awaitable<void> PutListQuestion(std::string alias);
  void Renamed();  // the names, made anew
  void TellChanged();

  GatewayLink link_;
  LoopCondition starts_changed_;
  std::map<std::string, Server> servers_;
  std::vector<std::string> notes_;
  int starting_ = 0;
  bool listed_ = false;  // the client read the list once: tell it of changes
  std::map<std::string, ServerTool> by_name_;
  std::map<ServerTool, GatewayToolName> names_;
  // Every name given in this session, and to what: a name the client was
  // given never comes to mean another tool.
  std::map<std::string, ServerTool> given_;
  // One tools/list puts the questions at a time.
  LoopCondition questions_;
  bool putting_ = false;
};

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_GATEWAY_GATEWAY_SERVERS_H_
