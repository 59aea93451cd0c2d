#include "supervisor/mcp/streamable_http.h"

#include <algorithm>
#include <charconv>

#include "confine/url.h"

namespace bravebot {
namespace {

std::string_view Trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r' ||
                           text.back() == '\n')) {
    text.remove_suffix(1);
  }
  return text;
}

Error Refused(std::string_view alias, const HttpRequest& request, const std::string& what) {
  return Error(ErrorCode::kRefused,
               std::string(alias) + " answered " + request.method + " with " + what);
}

}  // namespace

void HttpHeadReader::TakeLine(std::string_view line) {
  taken_ += line.size();
  if (overflowed()) return;
  line = Trimmed(line);
  if (line.starts_with("HTTP/")) {  // "HTTP/1.1 200 OK", "HTTP/2 404"
    head_ = HttpResponseHead();
    const std::size_t space = line.find(' ');
    if (space == std::string_view::npos) return;
    std::string_view code = line.substr(space + 1, 3);
    long status = 0;
    auto [end, error] = std::from_chars(code.data(), code.data() + code.size(), status);
    if (error == std::errc() && end == code.data() + code.size()) head_.status = status;
    return;
  }
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) return;
  const std::string name = AsciiLowercase(Trimmed(line.substr(0, colon)));
  std::string_view value = Trimmed(line.substr(colon + 1));
  if (name == "content-type") {
    head_.content_type = AsciiLowercase(Trimmed(value.substr(0, value.find(';'))));
  } else if (name == "mcp-session-id") {
    // Visible ASCII only, as MCP says: anything else would go out in every
    // later request's head.
    const bool visible = !value.empty() && std::all_of(value.begin(), value.end(), [](char c) {
      return c >= 0x21 && c <= 0x7e;
    });
    head_.session_id = visible ? std::string(value) : "";
  } else if (name == "location") {
    head_.location = std::string(value);
  } else if (name == "www-authenticate") {
    // A challenge past the bound is not read, as if it had not come: the
    // ones before it are whole.
    if (head_.www_authenticate.size() + 2 + value.size() > kMostChallengeBytes) return;
    if (!head_.www_authenticate.empty()) head_.www_authenticate += ", ";
    head_.www_authenticate += value;
  }
}

std::vector<std::pair<std::string, std::string>> StreamableHttpClient::SessionHeaders() const {
  std::vector<std::pair<std::string, std::string>> headers;
  if (!session_id_.empty()) headers.emplace_back("MCP-Session-Id", session_id_);
  if (!protocol_version_.empty()) headers.emplace_back("MCP-Protocol-Version", protocol_version_);
  return headers;
}

HttpRequest StreamableHttpClient::Post(std::string message) const {
  HttpRequest request{
      "POST",
      {{"Accept", "application/json, text/event-stream"}, {"Content-Type", "application/json"}},
      std::move(message)};
  for (auto& header : SessionHeaders()) request.headers.push_back(std::move(header));
  return request;
}

HttpRequest StreamableHttpClient::Listen(const std::string& last_event_id) const {
  HttpRequest request{"GET", {{"Accept", "text/event-stream"}}, ""};
  for (auto& header : SessionHeaders()) request.headers.push_back(std::move(header));
  if (!last_event_id.empty()) request.headers.emplace_back("Last-Event-ID", last_event_id);
  return request;
}

HttpRequest StreamableHttpClient::End() const { return {"DELETE", SessionHeaders(), ""}; }

void StreamableHttpClient::TakeHandshake(const HttpResponseHead& head,
                                         std::string protocol_version) {
  session_id_ = head.session_id;
  protocol_version_ = std::move(protocol_version);
}

Result<AnswerBody> ReadAnswerHead(std::string_view alias, const HttpRequest& request,
                                  const HttpResponseHead& head, bool answer_expected) {
  const long status = head.status;
  if (status >= 300 && status < 400) {
    if (status == 304 || head.location.empty()) {
      return Refused(alias, request, "HTTP " + std::to_string(status) + " and no place to go");
    }
    return AnswerBody::kRedirect;
  }
  if (status == 404 &&
      request.headers.end() !=
          std::find_if(request.headers.begin(), request.headers.end(),
                       [](const auto& h) { return h.first == "MCP-Session-Id"; })) {
    return Error(ErrorCode::kNotFound,
                 std::string(alias) + " answered " + request.method +
                     " with HTTP 404 for its MCP session: the service ended that session, and "
                     "a new one begins only with a new handshake");
  }
  if (status == 401) {
    // MCP's authorization: the service asks for a token, got none or one it
    // no longer takes. Signing in is the person's, at a terminal.
    return Error(ErrorCode::kSignInNeeded,
                 Refused(alias, request,
                         "HTTP 401: it asks for a sign-in, which `bravebot-mcp login " +
                             std::string(alias) + "` makes")
                     .message());
  }
  if (status < 200 || status >= 300) {
    return Refused(alias, request, "HTTP " + std::to_string(status));
  }
  if (status == 202 || !answer_expected) {
    if (answer_expected) {
      return Refused(alias, request, "HTTP 202 and no answer, where a request needs one");
    }
    return AnswerBody::kNothing;
  }
  if (head.content_type == "application/json") return AnswerBody::kJson;
  if (head.content_type == "text/event-stream") return AnswerBody::kEventStream;
  return Refused(alias, request,
                 "HTTP " + std::to_string(status) +
                     " and a body that is neither application/json nor text/event-stream");
}

}  // namespace bravebot
