// The request ids of a client bridged to a service (mcp-run --stdio), and
// ours. The channel to a service (servers/http_channel.h) tracks each
// request by a whole number of its own; a client may use any number or
// string, twice over in a session even. So each request the client sends
// is given the next id of ours on its way out, and its answer gets the
// client's back on its way in; a notifications/cancelled the client sends
// names ours too. What the service asks of the client, and the client's
// replies, keep the service's own ids: nothing of ours is in them.
//
//   BridgedIds ids;
//   std::int64_t ours = ids.Outgoing(request);   // request["id"] is now ours
//   ...
//   ids.Incoming(answer);                        // answer["id"] is the client's again
#ifndef BRAVEBOT_CLI_BRIDGED_IDS_H_
#define BRAVEBOT_CLI_BRIDGED_IDS_H_

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

namespace bravebot {

class BridgedIds {
 public:
  using Json = nlohmann::ordered_json;

  // A request of the client's on its way out: its id becomes the next of
  // ours, which is returned.
  std::int64_t Outgoing(Json& request);
  // An answer on its way in: where it answers a request of ours, its id
  // becomes the client's again and the request is done. False where it
  // answers none (a stray id), and is then left as it came.
  bool Incoming(Json& answer);
  // The client's id of our request `ours`, which will be answered no more:
  // it is done. Nothing where it was done already.
  std::optional<Json> Finish(std::int64_t ours);
  // A notifications/cancelled of the client's: the request it names gets
  // our id, which is returned, where it is under way.
  std::optional<std::int64_t> Cancelled(Json& notification);

  std::size_t under_way() const { return clients_.size(); }

 private:
  std::int64_t next_ = 1;
  std::map<std::int64_t, Json> clients_;  // ours -> the client's
};

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_BRIDGED_IDS_H_
