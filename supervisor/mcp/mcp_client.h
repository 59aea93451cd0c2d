// The client half of MCP over stdio: the handshake, the tool list and tool
// calls, one request at a time, over two pipes to a server that is already
// running. The descriptors are borrowed; starting, confining and stopping the
// server is the caller's (mcp-run's) business, as is ignoring SIGPIPE.
//
//   McpClient client(to_server.get(), from_server.get());
//   const auto wait = std::chrono::seconds(30);
//   auto hello = client.Initialize(wait);
//   if (!hello) return Report(hello.error(), client.last_failure());
//   auto tools = client.ListTools(wait);
//   auto answer = client.CallTool("get_alerts", {{"city_name", "Toronto"}}, wait);
//
// What the client does for the server, whatever it is waiting for: it answers
// a `ping` with an empty result and every other request the server sends
// (roots/list, sampling/...) with -32601 "Method not found", echoing the
// server's id; it ignores notifications; it takes as the answer to a request
// only a response (result or error, no method) carrying that request's id, so
// a server id that equals one of ours (roots/list with id 0) is never taken
// for an answer. Our ids are numbers from 1.
//
// A line that is not JSON (or JSON but no message) ends the exchange until the server has answered
// initialize (a program that prints a banner on standard output is not an MCP
// server, and the error quotes the line); after that it is skipped and
// counted, as SDK servers may print stray lines. A line nested deeper than
// kMaxJsonDepth (base/json_depth.h) ends the exchange whenever it comes.
//
// Every failure is an Error worded by us, naming the method (and for
// tools/call the tool: "the server answered tools/call for get_alerts with
// JSON-RPC error -32602 (invalid params)") and never holding words the server
// wrote, a quoted non-JSON line aside. last_failure() says which kind of
// failure it was, and keeps the server's own message of an error response for
// a verbose report.
#ifndef BRAVEBOT_SUPERVISOR_MCP_MCP_CLIENT_H_
#define BRAVEBOT_SUPERVISOR_MCP_MCP_CLIENT_H_

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "supervisor/mcp/json_rpc_lines.h"
#include "supervisor/mcp/mcp_answers.h"

namespace bravebot {

struct McpFailure {
  McpFailureKind kind = McpFailureKind::kNone;
  std::string method;  // the request it happened to (initialize, tools/list, tools/call)
  // For kErrorResponse: the code, and the server's own error.message and
  // error.data, which are untrusted and never in Error::message().
  std::optional<std::int64_t> code;
  std::string server_message;
  nlohmann::json server_data;
};

class McpClient {
 public:
  // How long one call may take, from when it is made.
  using Wait = std::chrono::steady_clock::duration;

  McpClient(int to_server_fd, int from_server_fd)
      : to_server_fd_(to_server_fd), reader_(from_server_fd) {}

  McpClient(const McpClient&) = delete;
  McpClient& operator=(const McpClient&) = delete;

  // Sends initialize (protocol 2025-11-25, no capabilities: no roots, no
  // sampling), waits for its answer, and sends notifications/initialized.
  // Refuses an answer in a version not in kMcpAcceptedVersions, naming it.
  Result<InitializeResult> Initialize(Wait wait);

  // Every tool of the server, page after page (nextCursor), each as the
  // server wrote it. Objects keep the server's order of keys (ordered_json),
  // so an argument list can be drawn in the order the schema gives; convert
  // with nlohmann::json(tool) where order does not matter. Refuses a tool
  // that is not an object with a string name, a cursor seen before, more
  // than kMaxToolListPages pages and more than kMaxToolListBytes in all.
  // `wait` covers all pages.
  Result<std::vector<nlohmann::ordered_json>> ListTools(Wait wait);

  // Calls tool `name` with `arguments` (an object) and returns the result
  // object, a result with "isError": true included: that is the tool's own
  // report and not a failure of the exchange.
  Result<nlohmann::json> CallTool(const std::string& name, const nlohmann::json& arguments,
                                  Wait wait);

  // What went wrong in the last call that failed, kind kNone after a success.
  const McpFailure& last_failure() const { return last_failure_; }

  // Lines that were not JSON-RPC messages, skipped after the handshake.
  std::size_t skipped_lines() const { return skipped_lines_; }

 private:
  // The deadline of a call that may take `wait`, remembered so its
  // messages say the wait given ("within 30 s"), not what was left of it.
  Deadline StartWaiting(Wait wait);
  // Sends request `method` and waits for its answer's result member. `what`
  // names the request in messages ("tools/call for get_alerts").
  Result<nlohmann::ordered_json> Request(const std::string& method, const std::string& what,
                                         const nlohmann::ordered_json& params, Deadline deadline);
  Status Send(const nlohmann::ordered_json& message, const std::string& method,
              const std::string& what, Deadline deadline);
  // Takes one message read while waiting for request `awaited_id`: answers a
  // server request, drops a notification or another answer, and moves the
  // answer awaited into `answer`.
  Status Take(nlohmann::ordered_json message, std::int64_t awaited_id, const std::string& method,
              const std::string& what, Deadline deadline,
              std::optional<nlohmann::ordered_json>& answer);
  // A line that is not a message: an error until initialize is answered,
  // skipped after.
  Status NotAMessage(std::string_view line, bool is_json, const std::string& method);
  Error Fail(McpFailureKind kind, const std::string& method, std::string message,
             int errno_value = 0);
  Error Fail(const McpFault& fault, const std::string& method, int errno_value = 0);

  int to_server_fd_;
  LineReader reader_;
  std::size_t answer_bytes_ = 0;  // the length of the line the last answer came in
  Wait wait_{};                   // what the call under way may take
  std::int64_t next_id_ = 1;
  bool initialize_answered_ = false;
  std::size_t skipped_lines_ = 0;
  McpFailure last_failure_;
};

// The name of a JSON-RPC error code in our words: "method not found" for
// -32601; empty for a code without a standard meaning.
std::string_view JsonRpcErrorName(std::int64_t code);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_MCP_MCP_CLIENT_H_
