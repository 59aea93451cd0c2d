// One MCP connection to a server, without I/O: it makes the lines to write
// and reads the lines the server wrote, keeping every request of ours that
// is still unanswered by its id, so answers are matched whenever they come
// and in any order. Whoever owns the pipes (the supervisor's loop, or
// mcp-run) writes and reads.
//
//   McpConnection connection;
//   Write(connection.Request(tag, "tools/call", params, "tools/call for echo"));
//   auto taken = connection.Take(line);              // a line the server wrote
//   if (auto* fault = std::get_if<McpFault>(&taken)) return Stop(*fault);
//   for (McpIncoming& incoming : std::get<0>(taken)) ...
//
// Our ids are numbers from 1, never reused. A message that has a method and
// an id is a request of the server's own, whatever its id; one with a method
// and no id, a notification; one with an id and a result or an error and no
// method, an answer, taken only when its id is one of ours still pending. A
// line that is no message ends the exchange until initialize is answered (a
// program that prints a banner is no MCP server); after, it is given as
// kSkipped, and whoever reads it decides what becomes of the requests still
// waiting (ServerLink ends them: that line may have been the answer to any).
// A line nested deeper than kMaxJsonDepth ends it whenever it comes.
#ifndef BRAVEBOT_SUPERVISOR_MCP_MCP_CONNECTION_H_
#define BRAVEBOT_SUPERVISOR_MCP_MCP_CONNECTION_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "supervisor/mcp/mcp_answers.h"

namespace bravebot {

// The most messages one batch line of a server's may hold; a longer one is a
// line that is no message. No server sends batches of more than a few.
inline constexpr std::size_t kMaxBatchMessages = 4096;

struct McpIncoming {
  enum class Kind {
    kAnswer,         // the answer to a request of ours
    kServerRequest,  // a request of the server's own (message has its id)
    kNotification,   // a notification of the server's
    kSkipped,        // a line that is no message, after the handshake
  };
  Kind kind = Kind::kSkipped;
  // kAnswer: the tag given with the request, and its method and `what`.
  std::uint64_t tag = 0;
  std::string method;
  std::string what;
  // kAnswer: the result member, or the fault an error answer is in our words.
  // For a request passed on (RequestPassingOn), the result is in
  // result_text instead, as JSON text.
  nlohmann::ordered_json result;
  std::string result_text;
  std::optional<McpFault> fault;
  // kAnswer and kSkipped: the bytes of the line it came in.
  std::size_t line_bytes = 0;
  // kServerRequest and kNotification: the message as the server wrote it.
  nlohmann::ordered_json message;
  // kSkipped: what the line was, in our words ("a line that is not JSON"),
  // never the line itself; the JSON-RPC code that names it (-32700, parse
  // error, or -32600, invalid request); and how many of our requests it
  // ended (set by whoever ended them).
  std::string skipped;
  std::int64_t skipped_code = 0;
  std::size_t requests_ended = 0;
};

// `text` as a JSON string, as nlohmann::json writes it: without a document
// where it needs no escape, as a method's or a tool's name most often does.
std::string JsonStringText(const std::string& text);

class McpConnection {
 public:
  // Our request `method` with `params` (null for none), remembered under
  // `tag`; `what` names it in messages ("tools/call for echo"), the method
  // when empty. Returns the line to write, without its '\n'.
  std::string Request(std::uint64_t tag, const std::string& method,
                      const nlohmann::ordered_json& params, std::string what = "");
  // The same under `id`, one below 1 that none of ours takes: the handshake
  // a link makes again where a service moved goes as -1, apart from the
  // numbers of the requests it stands in front of.
  std::string RequestAs(std::int64_t id, std::uint64_t tag, const std::string& method,
                        const nlohmann::ordered_json& params);
  // A request passed on for someone else: `params_text` is the params'
  // JSON text as they wrote it ("" for none), and the answer comes with its
  // result as text too (McpIncoming::result_text), read member by member
  // where it can be (base/json_members.h), so that a relay builds no
  // document of either. The params' text must be valid JSON.
  std::string RequestPassingOn(std::uint64_t tag, const std::string& method,
                               std::string_view params_text, std::string what);
  // A notification of ours.
  static std::string Notification(const std::string& method, const nlohmann::ordered_json& params);
  // The answer to the server's request `id`: its result, or an error object.
  static std::string Reply(const nlohmann::ordered_json& id, const nlohmann::ordered_json& result);
  static std::string ReplyError(const nlohmann::ordered_json& id,
                                const nlohmann::ordered_json& error);

  // Reads one line the server wrote (without its '\n'): what it held, or the
  // fault that ends the exchange.
  McpRead<std::vector<McpIncoming>> Take(std::string_view line);

  // The request sent with `id` got no answer, for `why` in our words (a
  // service that answered it with an HTTP error, or could not be reached):
  // its answer, carrying the fault, as Take would give one. Nothing where
  // no request of ours waits under that id.
  std::optional<McpIncoming> Fail(std::int64_t id, McpFault why);

  // The tag of the request still waiting under `id`, and the id of the one
  // under `tag`.
  std::optional<std::uint64_t> TagOf(std::int64_t id) const;
  std::optional<std::int64_t> IdOf(std::uint64_t tag) const;
  // The ids of every request of ours still unanswered, in the order sent.
  std::vector<std::int64_t> PendingIds() const;

  // Forgets the request under `tag`: an answer to it is dropped. Gives the
  // id it was sent with, to name it in notifications/cancelled.
  std::optional<std::int64_t> Forget(std::uint64_t tag);
  // Forgets every request still unanswered; gives their tags and methods.
  std::vector<std::pair<std::uint64_t, std::string>> ForgetAll();

  // What a fault came while waiting for, for its message: "" when nothing
  // was awaited, else " while bravebot-mcp waited for its answer to
  // tools/list" (or "its answers to A and B").
  std::string AwaitedText() const;

  bool initialize_answered() const { return initialize_answered_; }
  std::size_t pending() const { return pending_.size(); }

 private:
  struct Pending {
    std::uint64_t tag;
    std::string method;
    std::string what;
    bool passing_on = false;
  };
  std::int64_t Remember(std::uint64_t tag, const std::string& method, std::string what,
                        bool passing_on);
  void RememberAs(std::int64_t id, std::uint64_t tag, const std::string& method, std::string what,
                  bool passing_on);
  void Erase(std::map<std::int64_t, Pending>::iterator pending);
  // The answer to `pending`, which is forgotten; its result is the caller's.
  McpIncoming AnswerTo(std::map<std::int64_t, Pending>::iterator pending, std::size_t line_bytes);
  // An answer to a request passed on, read without a document; nullopt
  // where the line is anything else, or could not be read so.
  std::optional<McpIncoming> TakeAnswerPassedOn(std::string_view line);
  // One message of a line (a batch gives several).
  McpRead<std::optional<McpIncoming>> TakeMessage(nlohmann::ordered_json message,
                                                  std::string_view line);
  McpRead<std::optional<McpIncoming>> NotAMessage(std::string_view line, bool is_json);

  std::map<std::int64_t, Pending> pending_;
  std::int64_t next_id_ = 1;
  std::size_t passing_on_ = 0;  // how many of pending_ are passed on
  bool initialize_answered_ = false;
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_MCP_MCP_CONNECTION_H_
