#include "supervisor/auth/oauth_url.h"

#include <optional>

#include "confine/url.h"
#include "confine/url_host.h"

namespace bravebot {
namespace {

// Every spelling a connection reads as this machine: 127.0.0.0/8 and ::1;
// 0.0.0.0/8 and ::, which Linux connects to its own listeners; and the name
// localhost with every name under it, which libcurl and the resolver answer
// with a loopback address themselves (RFC 6761 section 6.3). A name that
// merely resolves here is another matter: no certificate a service here
// holds is one for it, so https stops before anything is sent.
bool IsThisMachine(const UrlHost& host) {
  if (host.is_name) return host.host == "localhost" || host.host.ends_with(".localhost");
  return host.host == "::1" || host.host == "::" || host.host.starts_with("127.") ||
         host.host.starts_with("0.");
}

std::string WithoutTrailingSlash(std::string text) {
  if (text.ends_with('/')) text.pop_back();
  return text;
}

}  // namespace

std::string OAuthUrl::Canonical() const {
  return origin + path + (query.empty() ? "" : "?" + query);
}

Result<OAuthUrl> ReadOAuthUrl(std::string_view url) {
  Result<ServiceUrl> parsed = ParseServiceUrl(url);
  if (!parsed) return Error(ErrorCode::kRefused, parsed.error().message());
  std::optional<UrlHost> host = ReadUrlHost(std::string(url));
  if (!host) {
    return Error(ErrorCode::kRefused, "the url names a host that could be read two ways");
  }
  OAuthUrl read;
  read.https = parsed->scheme == "https";
  read.this_machine = IsThisMachine(*host);
  const bool own_port = parsed->port.empty() || (read.https && parsed->port == "443") ||
                        (!read.https && parsed->port == "80");
  const bool ipv6 = host->host.find(':') != std::string::npos;
  read.origin = parsed->scheme + "://" + (ipv6 ? "[" + host->host + "]" : host->host) +
                (own_port ? "" : ":" + parsed->port);
  std::string_view rest = url.substr(url.find("://") + 3);
  const size_t path_start = rest.find_first_of("/?#");
  rest = path_start == std::string_view::npos ? std::string_view() : rest.substr(path_start);
  const size_t fragment = rest.find('#');
  read.has_fragment = fragment != std::string_view::npos;
  rest = rest.substr(0, fragment);
  const size_t question = rest.find('?');
  read.path = std::string(rest.substr(0, question));
  if (question != std::string_view::npos) read.query = std::string(rest.substr(question + 1));
  return read;
}

Result<OAuthUrl> ReadSecureOAuthUrl(std::string_view url, const std::string& what) {
  Result<OAuthUrl> read = ReadOAuthUrl(url);
  if (!read)
    return Error(ErrorCode::kRefused, what + " is not a usable url: " + read.error().message());
  if (!read->https && !read->this_machine) {
    return Error(ErrorCode::kRefused,
                 what + " is plain http, which would send secrets unencrypted: it must be https");
  }
  if (read->has_fragment) return Error(ErrorCode::kRefused, what + " has a fragment ('#')");
  return read;
}

bool SameResource(const OAuthUrl& a, const OAuthUrl& b) {
  return a.origin == b.origin && a.query == b.query &&
         WithoutTrailingSlash(a.path) == WithoutTrailingSlash(b.path);
}

}  // namespace bravebot
