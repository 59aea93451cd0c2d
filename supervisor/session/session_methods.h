// The supervisor's methods as a table: each named once, with the members its
// params may hold and what runs it. A request for a method the table lacks
// is refused, as is one sent before session/open, or with a member its
// method does not take (a misspelt member is refused rather than ignored).
//
//   methods.Add("server/start", {"alias"}, [&](const Json& id, RpcParams params) { ... });
//   methods.Dispatch(id, method, params, session_open, replies);
#ifndef BRAVEBOT_SUPERVISOR_SESSION_SESSION_METHODS_H_
#define BRAVEBOT_SUPERVISOR_SESSION_SESSION_METHODS_H_

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "supervisor/session/rpc_messages.h"
#include "supervisor/session/session_replies.h"

namespace bravebot {

class SessionMethods {
 public:
  using Run = std::function<void(const Json& id, RpcParams params)>;
  enum class Needs { kOpenSession, kNothing };

  void Add(std::string name, std::vector<std::string_view> params, Run run,
           Needs needs = Needs::kOpenSession);

  // Runs `method` for request `id`, or answers why it does not.
  void Dispatch(const Json& id, const std::string& method, const Json* params, bool session_open,
                SessionReplies& replies) const;

 private:
  struct Method {
    std::vector<std::string_view> params;
    Run run;
    Needs needs;
  };
  std::map<std::string, Method, std::less<>> methods_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SESSION_SESSION_METHODS_H_
