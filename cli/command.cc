#include "cli/command.h"

#include <nlohmann/json.hpp>
#include <ostream>

namespace bravebot {

int Report(CommandContext& context, const std::string& command, const Error& error) {
  context.err << "bravebot-mcp " << command << ": " << error.message() << "\n";
  return error.code() == ErrorCode::kUsage ? kExitUsage : kExitFailed;
}

std::string JsonText(const nlohmann::json& value) {
  return value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace bravebot
