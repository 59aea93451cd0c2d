// What every part of a session shares: the machine it runs on, where its
// servers' channels come from, how the session is answered, what
// session/open read and opened, and the servers it asked for. The parts
// (server_lifecycle.h, relay.h, tool_calls.h, redirect_flow.h) each decide
// one thing with it; Supervisor composes them.
#ifndef BRAVEBOT_SUPERVISOR_SESSION_SESSION_CONTEXT_H_
#define BRAVEBOT_SUPERVISOR_SESSION_SESSION_CONTEXT_H_

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <map>
#include <optional>
#include <string>

#include "base/shown_text.h"
#include "supervisor/servers/channel_factory.h"
#include "supervisor/session/server_requests.h"
#include "supervisor/session/session_opening.h"
#include "supervisor/session/session_replies.h"
#include "supervisor/session/session_server.h"
#include "supervisor/session/tool_call_gate.h"

namespace bravebot {

struct SessionContext {
  SessionContext(boost::asio::io_context& loop, SupervisorMachine this_machine,
                 const ChannelFactory& channel_factory, SessionOutput& output)
      : io(loop), machine(std::move(this_machine)), channels(channel_factory), replies(output) {}

  // The server `alias` names; null, and the session answered why, where it
  // asked for no such server.
  SessionServer* Find(const Json& id, const std::string& alias) {
    auto found = servers.find(alias);
    if (found != servers.end()) return &found->second;
    replies.RespondError(
        id,
        Refusal(kRpcWrongState, QuoteLine(alias, 80) + " is not a server this session asked for"));
    return nullptr;
  }
  // The server an event of its own comes from: always one asked for.
  SessionServer& At(const std::string& alias) { return servers.at(alias); }

  boost::asio::io_context& io;
  const SupervisorMachine machine;
  const ChannelFactory& channels;
  SessionReplies replies;
  ServerRequests server_requests;
  // Once session/open is answered:
  std::optional<SessionSettings> settings;
  std::optional<OpenedSession> session;
  std::optional<ToolCallGate> gate;
  // session/open's callTimeoutSeconds: how long a call or a request relayed
  // waits for its server's answer; none, as long as the server takes.
  std::optional<std::chrono::seconds> call_timeout;
  std::map<std::string, SessionServer> servers;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SESSION_SESSION_CONTEXT_H_
