// The host a service url reaches, read the one way both bravebot and a
// connection read it, and a host as an administrator writes it, in the same
// spelling, so the two can be compared. Deciding what matches is the
// administrator policy's (supervisor/policy/managed_policy).
//
//   std::optional<UrlHost> host = ReadUrlHost("https://MCP.example.com/mcp");
//   host->host == "mcp.example.com" && host->is_name
#ifndef BRAVEBOT_CONFINE_URL_HOST_H_
#define BRAVEBOT_CONFINE_URL_HOST_H_

#include <optional>
#include <string>
#include <string_view>

namespace bravebot {

struct UrlHost {
  std::string host;  // lowercase; an IPv6 address in its canonical spelling
  bool is_name = false;
};

// The host a url reaches, or nothing where bravebot and the connection could
// read it apart. ParseServiceUrl already refuses userinfo, spaces and control
// characters (a parser strips tabs and newlines from a url). Beyond those, a
// name holds only letters, digits, '.' and '-' in non-empty labels: that
// leaves out a backslash (read as '/' by a url parser), a percent escape
// (decoded by one), characters beyond ASCII (mapped by IDNA, fullwidth dots
// included), '_' and the like, and a trailing dot (the same name to DNS). A
// name ending in a number is an IPv4 address to a connection, and is read only
// in dotted-quad spelling. An IPv6 address must parse, so a zone ("%25eth0")
// is refused, and one mapping an IPv4 address (::ffff:a.b.c.d) is that
// address under another spelling.
std::optional<UrlHost> ReadUrlHost(const std::string& url);

// A host as written (an administrator's entry) in the spelling ReadUrlHost
// gives: lowercase, an IPv6 address without brackets and in its canonical
// spelling. Anything else is kept as written (lowercased) and matches only a
// url host spelled the same.
std::string CanonicalHost(std::string_view written);

}  // namespace bravebot

#endif  // BRAVEBOT_CONFINE_URL_HOST_H_
