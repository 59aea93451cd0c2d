#include "cli/bridged_ids.h"

#include <utility>

namespace bravebot {

std::int64_t BridgedIds::Outgoing(Json& request) {
  const std::int64_t ours = next_++;
  clients_[ours] = std::exchange(request["id"], Json(ours));
  return ours;
}

bool BridgedIds::Incoming(Json& answer) {
  auto id = answer.find("id");
  if (id == answer.end() || !id->is_number_integer()) return false;
  std::optional<Json> client = Finish(id->get<std::int64_t>());
  if (!client) return false;
  *id = std::move(*client);
  return true;
}

std::optional<BridgedIds::Json> BridgedIds::Finish(std::int64_t ours) {
  auto found = clients_.find(ours);
  if (found == clients_.end()) return std::nullopt;
  Json client = std::move(found->second);
  clients_.erase(found);
  return client;
}

std::optional<std::int64_t> BridgedIds::Cancelled(Json& notification) {
  auto params = notification.find("params");
  if (params == notification.end() || !params->is_object()) return std::nullopt;
  auto named = params->find("requestId");
  if (named == params->end()) return std::nullopt;
  for (const auto& [ours, client] : clients_) {
    if (client != *named) continue;
    *named = ours;
    return ours;
  }
  return std::nullopt;
}

}  // namespace bravebot
