// server/request and tool/call, the messages a session sends most, read
// member by member (base/json_members.h) rather than as a document: what the
// supervisor needs of them, and what it passes to the server as the session
// wrote it.
//
// Only the plain case is read so: anything else, or anything unusual about
// it, gives nullopt, and the supervisor reads the line whole, with every
// check and every error any request gets.
#ifndef BRAVEBOT_SUPERVISOR_SESSION_PASSED_ON_REQUEST_H_
#define BRAVEBOT_SUPERVISOR_SESSION_PASSED_ON_REQUEST_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/json_members.h"
#include "supervisor/session/rpc_messages.h"

namespace bravebot {

// A request of the session's with an id and params, read once: its method,
// and the members of its params (views into the line read).
struct SessionRequest {
  Json id;
  std::string method;
  std::vector<JsonMember> params;
};

std::optional<SessionRequest> ReadSessionRequest(std::string_view line);

struct PassedOnRequest {
  Json id;
  std::string alias;
  std::string method;
  std::string_view params_text;  // "" for none; a view into the line read
  std::string what;              // "tools/call for echo"
};

// A server/request, read; nullopt for any other method, or anything unusual.
std::optional<PassedOnRequest> ReadPassedOnRequest(SessionRequest request);
std::optional<PassedOnRequest> ReadPassedOnRequest(std::string_view line);

// A tool/call's params: its arguments and _meta as the session wrote them
// (each an object's text, "" where it gave none).
struct ToolCallRequest {
  std::string alias;
  std::string tool;
  std::string arguments_text;
  std::string meta_text;
  std::optional<std::string> answer;
};

struct PassedOnToolCall {
  Json id;
  ToolCallRequest call;
};

// A tool/call, read; nullopt for any other method, or anything unusual.
std::optional<PassedOnToolCall> ReadPassedOnToolCall(SessionRequest request);
std::optional<PassedOnToolCall> ReadPassedOnToolCall(std::string_view line);

// The params of the tools/call that `call` sends its server.
std::string ToolsCallParams(const ToolCallRequest& call);

// `call` with its arguments and _meta read whole and written again, as a
// question shows them: a key written twice (which readers take differently)
// is kept once, as the question shows it.
ToolCallRequest AsShown(ToolCallRequest call);

// How a request is named in messages: its method, and for tools/call the
// tool's name, escaped.
std::string RequestWhat(const std::string& method, const std::optional<std::string>& tool);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SESSION_PASSED_ON_REQUEST_H_
