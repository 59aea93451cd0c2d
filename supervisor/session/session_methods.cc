#include "supervisor/session/session_methods.h"

#include <utility>

#include "base/shown_text.h"

namespace bravebot {

void SessionMethods::Add(std::string name, std::vector<std::string_view> params, Run run,
                         Needs needs) {
  methods_.emplace(std::move(name), Method{std::move(params), std::move(run), needs});
}

void SessionMethods::Dispatch(const Json& id, const std::string& method, const Json* params,
                              bool session_open, SessionReplies& replies) const {
  auto found = methods_.find(method);
  if (found == methods_.end()) {
    return replies.RespondError(
        id, Refusal(kRpcMethodNotFound, "the supervisor has no method " + QuoteLine(method, 80)));
  }
  if (found->second.needs == Needs::kOpenSession && !session_open) {
    return replies.RespondError(
        id, Refusal(kRpcNoSession, "no session is open: send session/open first"));
  }
  // Each method says a problem with its params itself, once it has read
  // them: session/open's "a session is open already" comes first.
  found->second.run(id, RpcParams(params, found->second.params));
}

}  // namespace bravebot
