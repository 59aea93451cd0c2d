// What a ServerLink speaks MCP through: a stdio server's process
// (RunningServer) or a service's HTTP exchanges (HttpChannel). Lines go in,
// one JSON-RPC message each; what the server sends comes back as lines
// through the ChannelEvents given where the channel was made
// (servers/channel_factory.h).
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_SERVER_CHANNEL_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_SERVER_CHANNEL_H_

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace bravebot {

class ServerChannel {
 public:
  virtual ~ServerChannel() = default;

  // Sends one message; false where it cannot be taken (closed, or too much
  // waits).
  virtual bool Write(std::string line) = 0;
  virtual void PauseOutput() = 0;
  virtual void ResumeOutput() = 0;
  // Ends it; `done` gets its status (0 for a service ended as asked). A
  // second call only adds `done`.
  virtual void Stop(std::function<void(int status)> done = nullptr) = 0;

  virtual bool ended() const = 0;
  // Whether the server sent anything yet.
  virtual bool wrote_output() const = 0;
  // Its last lines on standard error; none for a service.
  virtual std::vector<std::string> stderr_tail() const = 0;
  // Its first process, and its run directory; -1 and "" for a service.
  virtual pid_t pid() const = 0;
  virtual std::string run_directory() const = 0;
  // A request of ours, sent with `id`, was given up, or its redirect
  // refused: a channel that holds something for it lets it go, sending
  // nothing more. A process's pipe holds nothing.
  virtual void Forget(std::int64_t /*id*/) {}
  // A service's redirects (ChannelEvents::on_redirect), which its link
  // decides. Move: a yes to where the answer to request `id` pointed, so
  // every request written from now on goes there; the request itself stays
  // held (its link makes the handshake there first) until SendHeld(id),
  // which sends it where requests go now.
  virtual void Move(std::int64_t /*id*/) {}
  virtual void SendHeld(std::int64_t /*id*/) {}
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_SERVER_CHANNEL_H_
