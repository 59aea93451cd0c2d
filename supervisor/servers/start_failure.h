// Why a server's start failed: the step that failed, the message in our
// words ("weather did not start: ..."), and what the server left to go by.
// mcp-run and the supervisor both say a start's failure from it, so a start
// fails in the same steps and the same words in both.
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_START_FAILURE_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_START_FAILURE_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bravebot {

enum class StartStep {
  kConfinement,         // its confinement could not be made
  kNotFound,            // its program is not found
  kRefused,             // refused before anything ran (the administrator, a service's URL)
  kExited,              // it ended before its handshake was done
  kNotJson,             // it wrote a line that is no JSON where its answer goes
  kClosed,              // it closed its output and runs on
  kTimeout,             // its handshake or list took longer than the start may
  kMalformed,           // an answer that is no answer to what was asked
  kUnsupportedVersion,  // it speaks no protocol version we speak
  kUnreachable,         // a service that could not be reached
  kSignInNeeded,        // a service that asks for a sign-in (bravebot-mcp login)
  kStopped,             // the session stopped it while it started
};

// The step's word on the wire (server/start's error data): "not-found", say.
std::string_view StartStepWord(StartStep step);

struct StartFailure {
  StartStep step = StartStep::kConfinement;
  std::string message;
  std::optional<int> status;  // kExited: its exit status
  bool printed_anything = false;
  std::vector<std::string> stderr_tail;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_START_FAILURE_H_
