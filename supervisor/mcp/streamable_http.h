// MCP over streamable HTTP, without I/O: the headers each request carries,
// the head of each answer as it is read, and what its body is to be read
// as. A transport below sends and receives; this decides.
//
// Every message is a POST with `Accept: application/json, text/event-stream`
// and `Content-Type: application/json`; once the handshake is answered, its
// `MCP-Session-Id` (where the server gave one) and the protocol version
// agreed (`MCP-Protocol-Version`) go on every request. A GET opens the
// stream a server sends on of its own accord, resumed with `Last-Event-ID`;
// a DELETE ends the session.
//
//   StreamableHttpClient client;
//   HttpRequest post = client.Post(initialize_line);
//   ... send it; feed each header line to an HttpHeadReader ...
//   client.TakeHandshake(head, "2025-11-25");
//   Result<AnswerBody> body = ReadAnswerHead("docs", post, head, /*answers_expected=*/true);
#ifndef BRAVEBOT_SUPERVISOR_MCP_STREAMABLE_HTTP_H_
#define BRAVEBOT_SUPERVISOR_MCP_STREAMABLE_HTTP_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"

namespace bravebot {

struct HttpRequest {
  std::string method;  // "POST", "GET" or "DELETE"
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;  // a POST's message; empty otherwise
};

// The head of one answer: its status, its content type and what MCP reads
// from its headers. Header names are matched whatever their case.
struct HttpResponseHead {
  long status = 0;
  std::string content_type;  // lowercase, without parameters: "text/event-stream"
  std::string session_id;    // MCP-Session-Id, "" where none came
  std::string location;      // Location, as sent, for a redirect
  // WWW-Authenticate, as sent, for a 401: several such headers joined by
  // ", ", as RFC 9110 (5.3) allows.
  std::string www_authenticate;
};

// Reads the head from header lines as they come (the status line first, a
// blank line last). A second status line (after a 100 Continue) starts the
// head again.
// What is kept of a head, however much a service sends: the challenges of
// a 401 up to kMostChallengeBytes (more are not read), and a head, interim
// ones counted, of kMostHeadBytes at most (past it the transfer ends).
inline constexpr std::size_t kMostChallengeBytes = std::size_t{16} * 1024;
inline constexpr std::size_t kMostHeadBytes = std::size_t{256} * 1024;

class HttpHeadReader {
 public:
  void TakeLine(std::string_view line);
  const HttpResponseHead& head() const { return head_; }
  // More than kMostHeadBytes came: no answer of a service's is this long.
  bool overflowed() const { return taken_ > kMostHeadBytes; }

 private:
  HttpResponseHead head_;
  std::size_t taken_ = 0;
};

class StreamableHttpClient {
 public:
  HttpRequest Post(std::string message) const;
  // The GET stream; `last_event_id` resumes it where it is not empty.
  HttpRequest Listen(const std::string& last_event_id) const;
  // The DELETE that ends the session; only where the server gave one.
  HttpRequest End() const;

  // The handshake was answered: keeps the session id its head gave, and the
  // version agreed, sent from now on.
  void TakeHandshake(const HttpResponseHead& head, std::string protocol_version);
  // The session is over (the server ended it, or a new handshake begins):
  // requests carry neither its id nor its version from now on.
  void ForgetSession() { session_id_.clear(), protocol_version_.clear(); }
  bool has_session() const { return !session_id_.empty(); }
  const std::string& session_id() const { return session_id_; }

 private:
  std::vector<std::pair<std::string, std::string>> SessionHeaders() const;

  std::string session_id_;
  std::string protocol_version_;
};

// What the body of an answer holds.
enum class AnswerBody {
  kNothing,      // 202 Accepted: a notification or a reply was taken
  kJson,         // one JSON-RPC message
  kEventStream,  // server-sent events, each a JSON-RPC message
  kRedirect,     // 3xx with a Location: for DecideRedirect
};

// Reads an answer's head to `request`. `answer_expected` is true where the
// request was a JSON-RPC request (an answer must come in the body), false
// for a notification or a reply (202 is what comes). Every failure is
// in our words, naming `alias`, the method and the status, and nothing the
// server wrote: "docs answered POST with HTTP 500"; kRefused, but kNotFound
// for a 404 to a request that carried a session id: the server ended that
// session.
Result<AnswerBody> ReadAnswerHead(std::string_view alias, const HttpRequest& request,
                                  const HttpResponseHead& head, bool answer_expected);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_MCP_STREAMABLE_HTTP_H_
