#include "cli/command.h"

#include <pwd.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <ostream>

#include "base/shown_text.h"

namespace bravebot {

int Report(CommandContext& context, const std::string& command, const Error& error) {
  // A message may quote a path a server made (a link's target): shown escaped,
  // it moves no cursor and sets no title.
  // One write: at a terminal, what the person typed ahead is echoed between
  // two writes, and would land inside the line.
  context.err << "bravebot-mcp " + command + ": " + EscapeControlCharacters(error.message()) + "\n";
  return error.code() == ErrorCode::kUsage ? kExitUsage : kExitFailed;
}

std::string CommandContext::UserHome() const {
  const char* home = getenv("HOME");
  if (home != nullptr && *home == '/') return home;
  const struct passwd* user = ::getpwuid(::geteuid());
  return user != nullptr && user->pw_dir != nullptr && user->pw_dir[0] == '/' ? user->pw_dir : "";
}

bool IsIncognito(const CommandContext& context) {
  const char* incognito = context.getenv("BRAVEBOT_INCOGNITO");
  return incognito != nullptr && std::string(incognito) == "1";
}

std::string JsonText(const nlohmann::json& value) {
  return value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace bravebot
