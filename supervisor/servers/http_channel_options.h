// How a service is reached (servers/http_channel.h): where it is
// declared, under the administrator file's rules, and who could be asked
// whether it moved.
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_HTTP_CHANNEL_OPTIONS_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_HTTP_CHANNEL_OPTIONS_H_

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "confine/declaration.h"
#include "supervisor/policy/managed_policy.h"
#include "supervisor/policy/redirect_decision.h"
#include "supervisor/servers/confined_server.h"

namespace bravebot {

struct HttpChannelOptions {
  std::string alias;
  std::string url;  // where it is declared
  // Sent with every request to that url's origin, and to no other.
  std::vector<StoredHeader> headers;
  // The access token login keeps for it, sent as Authorization: Bearer
  // with those headers, to that origin alone; nothing where none is kept.
  std::optional<std::string> bearer;
  // Whether that token is still kept (kept_sign_in.h), asked before each
  // request: once not, the bearer is sent no more. Empty: not asked.
  std::function<bool()> sign_in_kept;
  // How long a notification or a reply waits to be taken (202).
  std::chrono::milliseconds request_timeout{std::chrono::seconds(30)};
  Asking asking = Asking::kOneShot;
  ManagedPolicy policy;
};

// How the service `declaration` is reached when `options` start it: where,
// under the administrator file's host rules, with `asking` to say who could
// be asked of a move. kRefused, in the administrator's words, where that
// file refuses the service itself.
Result<HttpChannelOptions> ServiceChannelOptions(const Declaration& declaration,
                                                 const ServerStartOptions& options, Asking asking);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_HTTP_CHANNEL_OPTIONS_H_
