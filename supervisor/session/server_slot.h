// One requested server in a session, as the supervisor keeps it: what the
// session was told when it opened, and, once started, its process, its MCP
// connection and the requests of the session waiting on it.
#ifndef BRAVEBOT_SUPERVISOR_SESSION_SERVER_SLOT_H_
#define BRAVEBOT_SUPERVISOR_SESSION_SERVER_SLOT_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "supervisor/servers/server_link.h"
#include "supervisor/session/rpc_messages.h"
#include "supervisor/session/session_opening.h"

namespace bravebot {

enum class ServerLife {
  kNotStarted,  // server/start was not sent for it
  kStarting,    // started: its handshake and tool list are under way
  kRunning,     // answered server/start
  kStopping,    // server/stop, session/close or a failure is ending it
  kEnded,       // it ended: exited, stopped or failed
};

// A server's list read again, after it said the list changed: the tag of
// the page asked for, the pages so far, and whether it said so again since.
// At namespace scope, not nested in ServerSlot: clang decides whether a
// nested class with member initializers is default-constructible before
// the enclosing class is complete, so optional::emplace() would not compile.
struct ListReading {
  std::uint64_t tag = 0;
  ToolListPages pages;
  bool changed_again = false;
};

struct ServerSlot {
  OpenedServer opened;
  ServerLife life = ServerLife::kNotStarted;
  std::shared_ptr<ServerLink> link;
  Json start_id;                           // the session's server/start, while starting
  std::map<std::uint64_t, Json> requests;  // our tag -> the session's server/request id
  // Those that are tool/call's, by our tag: their result is marked private,
  // and a failure said in our words, naming the tool.
  struct ToolCall {
    std::string tool;  // as the model named it
    std::string note;  // said beside its result; "" for none
  };
  std::map<std::uint64_t, ToolCall> tool_calls;
  // Its list read again, after it said the list changed.
  std::optional<ListReading> list_reading;
  // Its requests whose answer pointed elsewhere, by tag (0: its start), with
  // where: each waits for redirect/answer, in this order.
  std::map<std::uint64_t, std::string> asked_moves;
  std::size_t server_requests = 0;  // its requests the session has not answered
  std::vector<Json> stop_ids;       // server/stop requests waiting for its end
  bool ended_on_request = false;    // stopped by the session, or for a failure
  std::string end_word;             // "exited", "stopped" or "failed"
  std::optional<int> status;
  // Lines it wrote that are no message, said in the log at most once a
  // second: when it was last said, and how many went unsaid since.
  std::chrono::steady_clock::time_point skipped_said_at;
  std::size_t skipped_unsaid = 0;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SESSION_SERVER_SLOT_H_
