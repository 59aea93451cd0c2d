// The JSON-RPC messages the supervisor sends its session, and the error codes
// of docs/supervisor-protocol.md. Every message is an ordered_json, so what a
// server wrote keeps the order of its keys on the way through.
#ifndef BRAVEBOT_SUPERVISOR_SESSION_RPC_MESSAGES_H_
#define BRAVEBOT_SUPERVISOR_SESSION_RPC_MESSAGES_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bravebot {

using Json = nlohmann::ordered_json;

enum RpcCode : int {
  kRpcParseError = -32700,
  kRpcInvalidRequest = -32600,
  kRpcMethodNotFound = -32601,
  kRpcInvalidParams = -32602,
  kRpcInternalError = -32603,
  kRpcNoSession = -32001,
  kRpcWrongState = -32002,
  kRpcStartFailed = -32003,
  kRpcServerFailed = -32004,
  kRpcServerGone = -32005,
  kRpcCancelled = -32800,
};

// An error in our words; `data` is null when there is none.
struct RpcError {
  int code = 0;
  std::string message;
  Json data;
};

// An error of the session's own making, or a refusal: no data.
RpcError Refusal(int code, std::string message);

// A request's id as its JSON text: the key of the requests waiting, and what
// an answer written by hand names.
std::string IdKey(const Json& id);

Json ResultMessage(const Json& id, Json result);
Json ErrorMessage(const Json& id, const RpcError& error);
Json NotificationMessage(const std::string& method, Json params);

// The params of a request, read strictly: an object (or absent, for a method
// that takes none) holding no member `known` does not name, so a misspelt
// member is refused rather than ignored.
class RpcParams {
 public:
  // nullopt and an error in `problem` when `params` is not such an object.
  RpcParams(const Json* params, std::vector<std::string_view> known);

  const std::optional<RpcError>& problem() const { return problem_; }

  // A string member: required unless `fallback` is given.
  std::optional<std::string> String(const std::string& name,
                                    std::optional<std::string> fallback = std::nullopt);
  std::optional<bool> Bool(const std::string& name, bool fallback);
  std::optional<long long> Integer(const std::string& name, long long fallback, long long low,
                                   long long high);
  // Any JSON member; null when absent.
  Json Any(const std::string& name) const;
  bool Has(const std::string& name) const;

 private:
  void Refuse(std::string message);

  Json params_;
  std::optional<RpcError> problem_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SESSION_RPC_MESSAGES_H_
