// bravebot-supervisor's service: JSON-RPC 2.0 with one session, one message a
// line on its standard input and output (docs/supervisor-protocol.md). It
// opens the session for a directory, says which servers start and which are
// asked about, records answers, starts servers confined and concurrently,
// relays every message both ways, and owns each server's whole life. All of
// it on one Boost.Asio loop: nothing blocks it but a server's fork and exec.
//
//   boost::asio::io_context io;
//   Supervisor supervisor(io, machine, STDIN_FILENO, STDOUT_FILENO);
//   supervisor.Begin();
//   io.run();                  // until session/close or the end of its input
//   return supervisor.exit_status();
//
// It is the composition of the parts that decide: the method table
// (session_methods.h), each server's life (server_lifecycle.h), the relay
// (relay.h), the tool-call gate's requests (tool_calls.h) and a service's
// redirect (redirect_flow.h), over what they share (session_context.h). What
// is here is the session's input, session/open, status and close, and the
// end of it all.
#ifndef BRAVEBOT_SUPERVISOR_SESSION_SUPERVISOR_H_
#define BRAVEBOT_SUPERVISOR_SESSION_SUPERVISOR_H_

#include <array>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <functional>
#include <string>

#include "supervisor/mcp/line_splitter.h"
#include "supervisor/servers/channel_factory.h"
#include "supervisor/session/redirect_flow.h"
#include "supervisor/session/relay.h"
#include "supervisor/session/server_lifecycle.h"
#include "supervisor/session/session_context.h"
#include "supervisor/session/session_methods.h"
#include "supervisor/session/session_output.h"
#include "supervisor/session/tool_calls.h"

namespace bravebot {

class Supervisor {
 public:
  // The most session/open's callTimeoutSeconds may be: a day.
  static constexpr long long kMaxCallTimeoutSeconds = 86400;

  // Its servers' channels come from `channels`: confined processes and HTTP
  // services, or scripted servers in its unit tests. It must outlive it.
  Supervisor(boost::asio::io_context& io, SupervisorMachine machine, int input_fd, int output_fd,
             const ChannelFactory& channels = ConfinedChannels());

  void Begin();
  // SIGTERM, SIGINT or SIGHUP: every server is stopped, then the loop ends
  // with the status a shell gives a process ended by `signal`.
  void EndOnSignal(int signal);
  int exit_status() const { return exit_status_; }

 private:
  void AddMethods();
  LinkEvents EventsFor(const std::string& alias);

  void ReadInput();
  void TakeLine(const std::string& line);

  void Open(const Json& id, RpcParams params);
  void Status(const Json& id);
  void Close(const Json& id);

  // Stops every server, then calls `then`.
  void EndAll(std::function<void()> then);
  void Finish(int status);
  void Congested(bool congested);

  boost::asio::io_context& io_;
  boost::asio::posix::stream_descriptor input_;
  boost::asio::steady_timer finish_timer_;
  SessionOutput output_;
  SessionContext session_;
  ToolCalls tool_calls_;
  RedirectFlow redirects_;
  Relay relay_;
  ServerLifecycle lifecycle_;
  SessionMethods methods_;
  std::array<char, 65536> input_buffer_;
  LineSplitter input_lines_;
  bool reading_input_ = false;
  bool ending_ = false;
  int exit_status_ = 0;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SESSION_SUPERVISOR_H_
