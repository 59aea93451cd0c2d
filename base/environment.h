// How code reads environment variables without reaching for the process's own:
// a function from a name to its value, or nullptr when it is unset. The
// programs pass ::getenv; tests pass a map.
#ifndef BRAVEBOT_BASE_ENVIRONMENT_H_
#define BRAVEBOT_BASE_ENVIRONMENT_H_

#include <functional>

namespace bravebot {

using EnvironmentLookup = std::function<const char*(const char*)>;

}  // namespace bravebot

#endif  // BRAVEBOT_BASE_ENVIRONMENT_H_
