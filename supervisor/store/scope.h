// Which settings file asks for a server once it is approved: local
// (.bravebot/settings.local.json in the checkout), project
// (.bravebot/settings.json in the checkout) or user (settings.json in the
// profile directory).
#ifndef BRAVEBOT_SUPERVISOR_STORE_SCOPE_H_
#define BRAVEBOT_SUPERVISOR_STORE_SCOPE_H_

#include <optional>
#include <string_view>

namespace bravebot {

enum class Scope { kLocal, kProject, kUser };

std::optional<Scope> ParseScope(std::string_view word);
std::string_view ScopeName(Scope scope);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_STORE_SCOPE_H_
