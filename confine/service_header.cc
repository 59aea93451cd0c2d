#include "confine/service_header.h"

#include <algorithm>

#include "confine/url.h"

namespace bravebot {

bool IsHeaderName(std::string_view name) {
  if (name.empty()) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
  });
}

bool IsSetByTheHttpClient(std::string_view name) {
  // Expect is sent empty by the client, so that no request waits for a
  // 100 Continue (servers/http_client.cc).
  static constexpr std::string_view kSetByTheClient[] = {
      "content-type",  "accept", "mcp-session-id", "mcp-protocol-version",
      "last-event-id", "host",   "content-length", "transfer-encoding",
      "connection",    "expect"};
  const std::string lower = AsciiLowercase(name);
  return std::find(std::begin(kSetByTheClient), std::end(kSetByTheClient), lower) !=
         std::end(kSetByTheClient);
}

HeaderValueProblem HeaderValueProblemOf(std::string_view value) {
  if (value.find_first_of(std::string_view("\r\n\0", 3)) != std::string_view::npos) {
    return HeaderValueProblem::kLineBreak;
  }
  if (value.find_first_not_of(" \t") == std::string_view::npos) return HeaderValueProblem::kBlank;
  return HeaderValueProblem::kNone;
}

std::optional<std::string> HeaderRefusal(std::string_view name, std::string_view value) {
  if (!IsHeaderName(name)) {
    return "a header name is not letters, digits and !#$%&'*+-.^_`|~";
  }
  const std::string shown(name);
  if (IsSetByTheHttpClient(name)) {
    return "the header " + shown +
           " is one bravebot-mcp's HTTP client sets itself on every request to a service";
  }
  switch (HeaderValueProblemOf(value)) {
    case HeaderValueProblem::kLineBreak:
      return "the header " + shown + " has a line break or a NUL in its value, which would end it";
    case HeaderValueProblem::kBlank:
      return "the header " + shown + " has no value";
    case HeaderValueProblem::kNone:
      break;
  }
  return std::nullopt;
}

bool SameHeaderName(std::string_view a, std::string_view b) {
  return AsciiLowercase(a) == AsciiLowercase(b);
}

}  // namespace bravebot
