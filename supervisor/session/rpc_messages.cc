#include "supervisor/session/rpc_messages.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "base/shown_text.h"

namespace bravebot {

RpcError Refusal(int code, std::string message) {
  return RpcError{code, std::move(message), nullptr};
}

std::string IdKey(const Json& id) {
  // Most ids are whole numbers: written as dump() writes them, without the
  // serializer it makes for each call.
  if (id.is_number_unsigned()) return std::to_string(id.get<std::uint64_t>());
  if (id.is_number_integer()) return std::to_string(id.get<std::int64_t>());
  return id.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Json ResultMessage(const Json& id, Json result) {
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

Json ErrorMessage(const Json& id, const RpcError& error) {
  Json body = {{"code", error.code}, {"message", error.message}};
  if (!error.data.is_null()) body["data"] = error.data;
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(body)}};
}

Json NotificationMessage(const std::string& method, Json params) {
  return Json{{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

RpcParams::RpcParams(const Json* params, std::vector<std::string_view> known) {
  if (params == nullptr || params->is_null()) {
    params_ = Json::object();
    return;
  }
  if (!params->is_object()) {
    Refuse("params must be an object");
    return;
  }
  params_ = *params;
  for (const auto& [name, value] : params_.items()) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      Refuse("this method takes no member " + QuoteLine(name, 60) + " in its params");
      return;
    }
  }
}

void RpcParams::Refuse(std::string message) {
  if (!problem_) problem_ = RpcError{kRpcInvalidParams, std::move(message), nullptr};
}

bool RpcParams::Has(const std::string& name) const { return params_.contains(name); }

Json RpcParams::Any(const std::string& name) const {
  auto found = params_.find(name);
  return found == params_.end() ? Json() : *found;
}

std::optional<std::string> RpcParams::String(const std::string& name,
                                             std::optional<std::string> fallback) {
  auto found = params_.find(name);
  if (found == params_.end()) {
    if (!fallback) Refuse("params." + name + " is missing: it takes a string");
    return fallback;
  }
  if (!found->is_string()) {
    Refuse("params." + name + " must be a string");
    return std::nullopt;
  }
  return found->get<std::string>();
}

std::optional<bool> RpcParams::Bool(const std::string& name, bool fallback) {
  auto found = params_.find(name);
  if (found == params_.end()) return fallback;
  if (!found->is_boolean()) {
    Refuse("params." + name + " must be true or false");
    return std::nullopt;
  }
  return found->get<bool>();
}

std::optional<long long> RpcParams::Integer(const std::string& name, long long fallback,
                                            long long low, long long high) {
  auto found = params_.find(name);
  if (found == params_.end()) return fallback;
  if (!found->is_number_integer() || found->get<long long>() < low ||
      found->get<long long>() > high) {
    Refuse("params." + name + " must be a whole number from " + std::to_string(low) + " to " +
           std::to_string(high));
    return std::nullopt;
  }
  return found->get<long long>();
}

}  // namespace bravebot
