// Where a ServerLink's channel comes from. What runs opens a confined
// process (RunningServer) for a stdio server and HTTP exchanges
// (HttpChannel) for a service; the session's unit tests open scripted
// servers instead (tests/supervisor/session/scripted_channels.h), so that
// every decision of a session runs without a process, and under the
// sanitizers.
//
//   auto abandon = ConfinedChannels().Open(io, declaration, options, settings, events,
//                                          [](Result<std::shared_ptr<ServerChannel>> channel) {});
//   abandon();   // the outcome is no longer wanted
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_CHANNEL_FACTORY_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_CHANNEL_FACTORY_H_

#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "base/result.h"
#include "confine/declaration.h"
#include "supervisor/policy/redirect_decision.h"
#include "supervisor/servers/confined_server.h"
#include "supervisor/servers/running_server.h"
#include "supervisor/servers/server_channel.h"

namespace bravebot {

// What a channel tells its link, from the loop. A process's channel gives
// the first five; a service's all but on_stderr_line and on_output_closed
// (http_channel.h says when each comes).
struct ChannelEvents {
  std::function<void(std::string line)> on_line;         // one message the server sent
  std::function<void(std::string line)> on_stderr_line;  // a line of its standard error, escaped
  std::function<void()> on_overflow;                     // a message too long to read
  std::function<void()> on_output_closed;                // its output ended while it runs
  std::function<void(int status)> on_exit;               // it ended, by itself or stopped
  std::function<void(std::int64_t id, const Error& why)> on_request_failed;
  std::function<void(std::int64_t id, std::string question, std::string target)> on_redirect;
  std::function<void(std::string why)> on_session_ended;
};

// What a link asks of the channel it opens.
struct ChannelSettings {
  std::string alias;
  Asking asking = Asking::kOneShot;
  RunningServer::LaunchOn launch_on = RunningServer::LaunchOn::kLauncherThread;
};

class ChannelFactory {
 public:
  using Opened = std::function<void(Result<std::shared_ptr<ServerChannel>> channel)>;
  // Calling it says the outcome is no longer wanted: it is not given, and a
  // channel opened meanwhile is stopped.
  using Abandon = std::function<void()>;

  virtual ~ChannelFactory() = default;

  // Opens the channel to `declaration`. `opened` gets it, or why not, from
  // the loop once Open has returned: kNotStarted where it was refused before
  // anything ran (the message names the server), kNotFound where its program
  // is not found, any other code where its confinement could not be made.
  // What `options` points to must outlive the open.
  virtual Abandon Open(boost::asio::io_context& io, const Declaration& declaration,
                       const ServerStartOptions& options, const ChannelSettings& settings,
                       ChannelEvents events, Opened opened) const = 0;
};

// Confined processes and HTTP services: what runs.
const ChannelFactory& ConfinedChannels();

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_CHANNEL_FACTORY_H_
