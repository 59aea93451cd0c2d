// JSON-RPC to bravebot-supervisor, as `bravebot-mcp session` speaks it: a
// request sent and its answer waited for, while every notification that
// comes meanwhile (a server's stderr line, its list changed, its end) is
// handed to the session as it comes. Answers are matched by id, since the
// supervisor answers a request that waits on a server after later ones.
#ifndef BRAVEBOT_CLI_SUPERVISOR_CONNECTION_H_
#define BRAVEBOT_CLI_SUPERVISOR_CONNECTION_H_

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

#include "cli/supervisor_child.h"

namespace bravebot {

class SupervisorConnection {
 public:
  using Json = nlohmann::ordered_json;
  // Takes a notification; true when the session must act on it before it
  // reads on (a list to put to the person).
  using NotificationHandler = std::function<bool(const Json& notification)>;

  SupervisorConnection(SupervisorChild& child, NotificationHandler on_notification)
      : child_(child), on_notification_(std::move(on_notification)) {}

  // Sends a request; gives its id.
  int Send(const std::string& method, Json params);
  // Sends a request whose answer nobody waits for (a server/reply).
  void SendUnanswered(const std::string& method, Json params);
  // Waits for the answer to request `id`: the whole message, with its
  // `result` or its `error`. Nothing when the supervisor ended first.
  // `each_quiet_second`, where given, is called each second the supervisor
  // says nothing meanwhile (a progress line is drawn by it).
  std::optional<Json> WaitFor(int id, const std::function<void()>& each_quiet_second = nullptr);
  std::optional<Json> Call(const std::string& method, Json params) {
    return WaitFor(Send(method, std::move(params)));
  }

  enum class Wait { kReadable, kNotified, kEnded };
  // Waits until `fd` can be read, handling what the supervisor writes
  // meanwhile; returns early where a notification asked for it.
  Wait WaitUntilReadable(int fd);

 private:
  enum class Pumped { kSupervisorSpoke, kReadable, kQuiet };
  // Waits until the supervisor wrote something or `fd` (-1 for none) can be
  // read, writing what is queued for the supervisor meanwhile; kQuiet once
  // `timeout_ms` passed with neither (never, for -1).
  Pumped Pump(int fd, int timeout_ms = -1);
  // False unless it was a notification the session must act on.
  bool Take(const std::string& line);

  SupervisorChild& child_;
  NotificationHandler on_notification_;
  int next_id_ = 1;
  std::map<int, Json> answers_;  // answers come, by id, not yet waited for
  std::set<int> unanswered_;     // ids whose answers are dropped
  bool ended_ = false;
};

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_SUPERVISOR_CONNECTION_H_
