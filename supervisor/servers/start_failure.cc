#include "supervisor/servers/start_failure.h"

namespace bravebot {

std::string_view StartStepWord(StartStep step) {
  switch (step) {
    case StartStep::kConfinement:
      return "confinement";
    case StartStep::kNotFound:
      return "not-found";
    case StartStep::kRefused:
      return "refused";
    case StartStep::kExited:
      return "exited";
    case StartStep::kNotJson:
      return "not-json";
    case StartStep::kClosed:
      return "closed";
    case StartStep::kTimeout:
      return "timeout";
    case StartStep::kMalformed:
      return "malformed";
    case StartStep::kUnsupportedVersion:
      return "unsupported-version";
    case StartStep::kUnreachable:
      return "unreachable";
    case StartStep::kSignInNeeded:
      return "sign-in-needed";
    case StartStep::kStopped:
      return "stopped";
  }
  return "confinement";
}

}  // namespace bravebot
