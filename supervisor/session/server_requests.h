// Requests servers make of the session (roots/list, sampling, elicitation),
// each under an id of ours while the session has not answered it, so that no
// two servers' requests, and none of the session's own ids, can be taken for
// each other. Bounded: a server keeps at most kMostPerServer waiting, each
// id at most kMostIdBytes long.
#ifndef BRAVEBOT_SUPERVISOR_SESSION_SERVER_REQUESTS_H_
#define BRAVEBOT_SUPERVISOR_SESSION_SERVER_REQUESTS_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>

#include "supervisor/session/rpc_messages.h"

namespace bravebot {

class ServerRequests {
 public:
  static constexpr std::size_t kMostPerServer = 1024;
  static constexpr std::size_t kMostIdBytes = 256;

  struct Request {
    std::string alias;
    Json id;  // as the server gave it
  };

  // The id the session sees for request `id` of `alias`; or, with nothing
  // kept, the error the server is answered with: an id that is neither a
  // whole number nor a short string, or one too many waiting.
  std::variant<std::int64_t, Json> Add(const std::string& alias, const Json& id);
  // The request the session sees as `ours`; null where none waits.
  const Request* Find(std::int64_t ours) const {
    auto found = requests_.find(ours);
    return found == requests_.end() ? nullptr : &found->second;
  }
  // The request the session answers under `ours`, forgotten.
  std::optional<Request> Take(std::int64_t ours);
  // The id the session saw for request `id` of `alias` (its cancellation
  // names it so), forgotten; nothing where none waits.
  std::optional<std::int64_t> TakeOf(const std::string& alias, const Json& id);
  // Every request of `alias`, which can be answered no more.
  void ForgetAllOf(const std::string& alias);

 private:
  std::map<std::int64_t, Request> requests_;
  // The same, by alias and the server's own id.
  std::map<std::string, std::int64_t> by_server_id_;
  std::map<std::string, std::size_t> count_;  // by alias
  std::int64_t next_ = 1;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SESSION_SERVER_REQUESTS_H_
