#include "supervisor/session/session_replies.h"

#include <iostream>
#include <utility>

#include "base/shown_text.h"

namespace bravebot {

void SessionReplies::Respond(const Json& id, Json result) {
  // An answer no session could read is said in words, never left unsent.
  if (!output_.Send(ResultMessage(id, std::move(result)))) {
    RespondError(id, RpcError{kRpcInternalError,
                              "the answer is longer than 16 MiB once written, which no session "
                              "reads",
                              nullptr});
  }
}

void SessionReplies::RespondError(const Json& id, const RpcError& error) {
  output_.Send(ErrorMessage(id, error));
}

bool SessionReplies::Notify(const std::string& method, Json params) {
  return output_.Send(NotificationMessage(method, std::move(params)));
}

bool SessionReplies::SendLine(std::string line) { return output_.SendLine(std::move(line)); }

void SessionReplies::Log(const std::string& line) {
  std::cerr << "bravebot-supervisor: " << EscapeControlCharacters(line) << "\n" << std::flush;
}

void SessionReplies::Await(const Json& id, std::string alias, std::uint64_t tag) {
  waiting_[IdKey(id)] = Waiting{std::move(alias), tag};
}

const SessionReplies::Waiting* SessionReplies::Find(const Json& id) const {
  auto found = waiting_.find(IdKey(id));
  return found == waiting_.end() ? nullptr : &found->second;
}

}  // namespace bravebot
