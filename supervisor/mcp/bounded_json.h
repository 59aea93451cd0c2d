// One JSON-RPC message parsed only where that is cheap and safe: text nested
// deeper or wider than we read anywhere (base/json_depth.h) is left
// unparsed (discarded), so that whoever must refuse it in words still can.
// For the places that only need a message's method and id to pass it on:
// the HTTP channel and mcp-run's service bridge.
#ifndef BRAVEBOT_SUPERVISOR_MCP_BOUNDED_JSON_H_
#define BRAVEBOT_SUPERVISOR_MCP_BOUNDED_JSON_H_

#include <nlohmann/json.hpp>
#include <string_view>

#include "base/json_depth.h"

namespace bravebot {

inline nlohmann::ordered_json ParseMessageWithinBounds(std::string_view line) {
  if (NestsDeeperThan(line) || HasObjectWiderThan(line)) {
    return nlohmann::ordered_json(nlohmann::ordered_json::value_t::discarded);
  }
  return nlohmann::ordered_json::parse(line, nullptr, /*allow_exceptions=*/false);
}

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_MCP_BOUNDED_JSON_H_
