// The parts of a service url that declaring and admitting a server look at.
// Deliberately strict: what this reads apart from what a connection would read
// is refused rather than guessed at.
//
//   auto url = ParseServiceUrl("https://mcp.example.com/mcp");
//   url->host == "mcp.example.com"
#ifndef BRAVEBOT_CONFINE_URL_H_
#define BRAVEBOT_CONFINE_URL_H_

#include <string>
#include <string_view>

#include "base/result.h"

namespace bravebot {

struct ServiceUrl {
  std::string scheme;  // "http" or "https", lowercase
  std::string host;    // as written, without brackets around an IPv6 address
  std::string port;    // digits as written, or "" when none is given
};

// Whether `url` holds a user or a password before an '@' of its authority,
// which ParseServiceUrl refuses: a caller that must not show such a url
// asks first.
bool UrlCarriesCredentials(std::string_view url);

// `text` with A-Z made a-z and every other byte kept: how a scheme and a host
// name are compared.
std::string AsciiLowercase(std::string_view text);

// Whether `a` and `b` are one origin: the same scheme, host (whatever its
// case) and port, a port left out being the scheme's own.
bool IsSameOrigin(const ServiceUrl& a, const ServiceUrl& b);

// Reads an http or https url. The error (kUsage) never repeats the url, since
// a url carrying a password is one of the things refused.
Result<ServiceUrl> ParseServiceUrl(std::string_view url);

}  // namespace bravebot

#endif  // BRAVEBOT_CONFINE_URL_H_
