#include "supervisor/store/scope.h"

namespace bravebot {

std::optional<Scope> ParseScope(std::string_view word) {
  if (word == "local") return Scope::kLocal;
  if (word == "project") return Scope::kProject;
  if (word == "user") return Scope::kUser;
  return std::nullopt;
}

std::string_view ScopeName(Scope scope) {
  switch (scope) {
    case Scope::kLocal:
      return "local";
    case Scope::kProject:
      return "project";
    case Scope::kUser:
      return "user";
  }
  return "local";
}

}  // namespace bravebot
