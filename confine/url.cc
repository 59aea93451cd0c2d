#include "confine/url.h"

#include <algorithm>
#include <cctype>

namespace bravebot {
namespace {

Error UrlError(const std::string& why) { return Error(ErrorCode::kUsage, "the url " + why); }

bool HasSpaceOrControl(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    auto byte = static_cast<unsigned char>(c);
    return byte <= 0x20 || byte == 0x7f;
  });
}

}  // namespace

std::string AsciiLowercase(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) {
    return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  });
  return lower;
}

bool IsSameOrigin(const ServiceUrl& a, const ServiceUrl& b) {
  auto port = [](const ServiceUrl& url) {
    return !url.port.empty() ? url.port : url.scheme == "https" ? "443" : "80";
  };
  return a.scheme == b.scheme && AsciiLowercase(a.host) == AsciiLowercase(b.host) &&
         port(a) == port(b);
}

bool UrlCarriesCredentials(std::string_view url) {
  const size_t scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return false;
  std::string_view rest = url.substr(scheme_end + 3);
  return rest.substr(0, rest.find_first_of("/?#")).find('@') != std::string_view::npos;
}

Result<ServiceUrl> ParseServiceUrl(std::string_view url) {
  if (HasSpaceOrControl(url)) return UrlError("holds a space or a control character");
  size_t scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) {
    return UrlError("is not an http or https url (it has no scheme://)");
  }
  ServiceUrl parsed;
  parsed.scheme = AsciiLowercase(url.substr(0, scheme_end));
  if (parsed.scheme != "http" && parsed.scheme != "https") {
    return UrlError("is not an http or https url");
  }
  std::string_view rest = url.substr(scheme_end + 3);
  std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
  if (UrlCarriesCredentials(url)) {
    return UrlError(
        "carries a user or a password, and a declaration never holds one: give the "
        "server's address alone (the url is not repeated here, since it holds a secret)");
  }
  std::string_view host_and_port = authority;
  if (host_and_port.starts_with('[')) {
    size_t close = host_and_port.find(']');
    if (close == std::string_view::npos) return UrlError("has an IPv6 address with no ']'");
    parsed.host = std::string(host_and_port.substr(1, close - 1));
    host_and_port.remove_prefix(close + 1);
    if (!host_and_port.empty() && !host_and_port.starts_with(':')) {
      return UrlError("has something between its IPv6 address and its port");
    }
  } else {
    size_t colon = host_and_port.find(':');
    parsed.host = std::string(host_and_port.substr(0, colon));
    host_and_port =
        colon == std::string_view::npos ? std::string_view() : host_and_port.substr(colon);
  }
  if (host_and_port.starts_with(':')) {
    parsed.port = std::string(host_and_port.substr(1));
    bool digits = !parsed.port.empty() && parsed.port.size() <= 5 &&
                  std::all_of(parsed.port.begin(), parsed.port.end(),
                              [](char c) { return c >= '0' && c <= '9'; });
    if (!digits || std::stoi(parsed.port) > 65535)
      return UrlError("has a port that is not 0-65535");
  }
  if (parsed.host.empty()) return UrlError("names no host");
  return parsed;
}

}  // namespace bravebot
