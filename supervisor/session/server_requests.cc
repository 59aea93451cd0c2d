#include "supervisor/session/server_requests.h"

#include <vector>

namespace bravebot {
namespace {

std::string ServerIdKey(const std::string& alias, const Json& id) {
  return alias + '\n' + id.dump();
}

}  // namespace

std::variant<std::int64_t, Json> ServerRequests::Add(const std::string& alias, const Json& id) {
  if (!(id.is_number_integer() ||
        (id.is_string() && id.get_ref<const std::string&>().size() <= kMostIdBytes))) {
    return Json{{"code", -32600},
                {"message", "an id is a whole number or a string of at most 256 bytes"}};
  }
  std::size_t& count = count_[alias];
  if (count >= kMostPerServer) {
    return Json{{"code", -32603},
                {"message", "too many of this server's requests wait for an answer already"}};
  }
  const std::int64_t ours = next_++;
  requests_[ours] = Request{alias, id};
  by_server_id_[ServerIdKey(alias, id)] = ours;
  ++count;
  return ours;
}

std::optional<ServerRequests::Request> ServerRequests::Take(std::int64_t ours) {
  auto found = requests_.find(ours);
  if (found == requests_.end()) return std::nullopt;
  Request request = std::move(found->second);
  requests_.erase(found);
  by_server_id_.erase(ServerIdKey(request.alias, request.id));
  if (std::size_t& count = count_[request.alias]; count > 0) --count;
  return request;
}

std::optional<std::int64_t> ServerRequests::TakeOf(const std::string& alias, const Json& id) {
  auto found = by_server_id_.find(ServerIdKey(alias, id));
  if (found == by_server_id_.end()) return std::nullopt;
  const std::int64_t ours = found->second;
  Take(ours);
  return ours;
}

void ServerRequests::ForgetAllOf(const std::string& alias) {
  std::vector<std::int64_t> left;
  for (const auto& [ours, request] : requests_) {
    if (request.alias == alias) left.push_back(ours);
  }
  for (std::int64_t ours : left) Take(ours);
}

}  // namespace bravebot
