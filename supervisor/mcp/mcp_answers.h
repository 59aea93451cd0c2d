// Reading a server's answers to the requests every MCP client makes, in one
// wording for mcp-run's blocking client and the supervisor's connections:
// the initialize answer, the pages of tools/list, an error answer, and a line
// that is no message. Pure: values in, values or a fault in our words out.
//
//   McpRead<InitializeResult> hello = ReadInitializeAnswer(result);
//   if (auto* fault = std::get_if<McpFault>(&hello)) return Report(*fault);
//
//   ToolListPages pages;
//   auto step = pages.Take(page_result, line_bytes);   // a cursor, the end, or a fault
#ifndef BRAVEBOT_SUPERVISOR_MCP_MCP_ANSWERS_H_
#define BRAVEBOT_SUPERVISOR_MCP_MCP_ANSWERS_H_

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace bravebot {

// The protocol version we ask for, and every version we accept in answer.
inline constexpr char kMcpProtocolVersion[] = "2025-11-25";
inline constexpr std::array<std::string_view, 4> kMcpAcceptedVersions = {
    "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};
inline constexpr char kMcpClientName[] = "bravebot-mcp";
inline constexpr char kMcpClientVersion[] = "0.1.0";

// Cursor pages of tools/list followed before the list is refused.
inline constexpr std::size_t kMaxToolListPages = 1000;
// The bytes of every page of tools/list together, as the server wrote them,
// before the list is refused: a list of hundreds of tools is a few hundred
// KiB, and each page is kept until the last.
inline constexpr std::size_t kMaxToolListBytes = std::size_t{16} << 20;

// Which way an exchange failed.
enum class McpFailureKind {
  kTimedOut,            // no answer before the deadline
  kNotJson,             // before the initialize answer, a line that is not a JSON-RPC message
  kErrorResponse,       // the server answered with a JSON-RPC error: method and code
  kUnsupportedVersion,  // initialize answered in a protocol version we do not speak
  kMalformed,           // JSON, but no answer we can use: a field missing, a cursor loop, a
                        // line over 16 MiB, a tool list over 16 MiB, JSON nested deeper than
                        // 128 levels, an object of more than 4096 members
};

// One failure, in our words: never a word the server wrote, a quoted line
// that is not JSON aside.
struct McpFault {
  McpFailureKind kind = McpFailureKind::kMalformed;
  std::string message;
  std::optional<std::int64_t> code;  // the server's error code, for kErrorResponse
};

template <typename T>
using McpRead = std::variant<T, McpFault>;

struct InitializeResult {
  std::string protocol_version;
  std::string server_name;     // serverInfo.name, empty if not given
  std::string server_version;  // serverInfo.version, empty if not given
  std::optional<std::string> instructions;
  nlohmann::json capabilities = nlohmann::json::object();
};

// The params of our initialize: protocol kMcpProtocolVersion, and the
// client's `capabilities` (none: no roots, no sampling, unless a session
// that answers those requests says it does).
nlohmann::ordered_json InitializeParams(
    const nlohmann::ordered_json& capabilities = nlohmann::ordered_json::object());

// The result of initialize, read: refuses an answer in a version not in
// kMcpAcceptedVersions, naming it, and one that names no version.
McpRead<InitializeResult> ReadInitializeAnswer(const nlohmann::ordered_json& result);

// The pages of one tools/list, taken as they come. Refuses a tool that is not
// an object with a string name, a cursor seen before, more than
// kMaxToolListPages pages and more than kMaxToolListBytes in all.
class ToolListPages {
 public:
  struct NextPage {
    std::string cursor;
  };
  struct Done {};

  // The params of the next request: none for the first page, as the SDK
  // clients send it, then {"cursor": ...}.
  nlohmann::ordered_json NextParams() const;

  // Takes the result of one page, which came in a line of `line_bytes`.
  std::variant<NextPage, Done, McpFault> Take(nlohmann::ordered_json result,
                                              std::size_t line_bytes);

  // Every tool of every page, each as the server wrote it.
  std::vector<nlohmann::ordered_json>& tools() { return tools_; }

 private:
  std::vector<nlohmann::ordered_json> tools_;
  std::set<std::string> cursors_seen_;
  std::optional<std::string> cursor_;
  std::size_t pages_ = 0;
  std::size_t bytes_ = 0;
};

// The name JSON-RPC and MCP give a standard error code ("invalid params"), or
// "" for another.
std::string_view JsonRpcErrorName(std::int64_t code);

// An error answer to `what` ("tools/call for get_alerts"): its code, named.
McpFault ErrorAnswerFault(const nlohmann::ordered_json& error, const std::string& what);

// A line before the initialize answer that is not JSON (or JSON, but no
// JSON-RPC message), quoted.
McpFault NotAMessageFault(std::string_view line, bool is_json);

// No answer to `what` within `wait` ("no answer to initialize within 30 s").
McpFault NoAnswerFault(const std::string& what, std::chrono::steady_clock::duration wait);

// "30 s", "1.5 s", "200 ms": how long a wait was, for a message.
std::string DescribeWait(std::chrono::steady_clock::duration wait);

// Whether `line` holds nothing but blanks, which a reader skips.
bool IsBlankLine(std::string_view line);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_MCP_MCP_ANSWERS_H_
