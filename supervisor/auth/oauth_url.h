// The urls signing in meets (a service's, an authorization server's issuer
// and endpoints, a metadata document's), read into the parts discovery and
// its checks need: where to insert a well-known path, whether a url may be
// plain http (only on the machine itself, for tests), and the spelling two
// urls are compared in.
//
//   auto url = ReadOAuthUrl("https://MCP.example.com:443/mcp");
//   url->origin == "https://mcp.example.com" && url->path == "/mcp"
#ifndef BRAVEBOT_SUPERVISOR_AUTH_OAUTH_URL_H_
#define BRAVEBOT_SUPERVISOR_AUTH_OAUTH_URL_H_

#include <string>
#include <string_view>

#include "base/result.h"

namespace bravebot {

struct OAuthUrl {
  // "scheme://host[:port]": scheme and host lowercase, a port the scheme's
  // own (80 for http, 443 for https) left out, an IPv6 address in brackets.
  std::string origin;
  std::string path;   // as written: "" or beginning with '/'
  std::string query;  // as written, without its '?'; "" for none
  bool has_fragment = false;
  bool https = false;
  // localhost and names under it, 127.0.0.0/8, ::1, 0.0.0.0/8 or ::
  bool this_machine = false;

  // origin + path + ("?" + query where there is one): the url as compared.
  std::string Canonical() const;
};

// Reads an http or https url (confine/url.h's rules: no user or password, a
// host a connection reads the same way). kRefused, never quoting the url,
// where it is not one.
Result<OAuthUrl> ReadOAuthUrl(std::string_view url);

// The same, and refused unless it may carry secrets: https, or http to the
// machine itself (the tests' servers), and without a fragment. `what` names
// it in the error ("the token endpoint").
Result<OAuthUrl> ReadSecureOAuthUrl(std::string_view url, const std::string& what);

// Whether `a` and `b` name the same resource: equal once canonical, a path
// ending in '/' and the same path without it counted as one.
bool SameResource(const OAuthUrl& a, const OAuthUrl& b);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_AUTH_OAUTH_URL_H_
