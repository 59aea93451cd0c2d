#include "confine/url_host.h"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <cctype>

#include "confine/url.h"

namespace bravebot {
namespace {

std::optional<std::string> CanonicalIpv6(const std::string& text) {
  std::array<unsigned char, 16> address;
  if (inet_pton(AF_INET6, text.c_str(), address.data()) != 1) return std::nullopt;
  std::array<char, INET6_ADDRSTRLEN> shown;
  if (inet_ntop(AF_INET6, address.data(), shown.data(), shown.size()) == nullptr) {
    return std::nullopt;
  }
  return std::string(shown.data());
}

bool IsDigits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// True for an IPv4 address in the one spelling both readers agree on: four
// decimal numbers 0-255, none with a leading zero.
bool IsDottedQuad(std::string_view host) {
  int parts = 0;
  while (true) {
    size_t dot = host.find('.');
    std::string_view part = host.substr(0, dot);
    if (!IsDigits(part) || part.size() > 3 || (part.size() > 1 && part[0] == '0') ||
        std::stoi(std::string(part)) > 255) {
      return false;
    }
    ++parts;
    if (dot == std::string_view::npos) break;
    host.remove_prefix(dot + 1);
  }
  return parts == 4;
}

// True where a url parser reads the host as an IPv4 address: its last label is
// a number, in decimal or 0x hexadecimal (so "127.1", "2130706433" and
// "0x7f.0.0.1" are all 127.0.0.1 to a connection).
bool EndsInNumber(std::string_view host) {
  std::string_view last = host.substr(host.rfind('.') + 1);
  if (IsDigits(last)) return true;
  if (last.size() < 2 || last[0] != '0' || (last[1] != 'x' && last[1] != 'X')) return false;
  return std::all_of(last.begin() + 2, last.end(),
                     [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}

}  // namespace

std::string CanonicalHost(std::string_view written) {
  std::string host = AsciiLowercase(written);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (host.find(':') != std::string::npos) {
    if (std::optional<std::string> canonical = CanonicalIpv6(host)) return *canonical;
  }
  return host;
}

std::optional<UrlHost> ReadUrlHost(const std::string& url) {
  Result<ServiceUrl> parsed = ParseServiceUrl(url);
  if (!parsed) return std::nullopt;
  const bool bracketed = url.substr(url.find("://") + 3).starts_with('[');
  UrlHost read;
  if (bracketed) {
    if (!std::all_of(parsed->host.begin(), parsed->host.end(), [](char c) {
          return std::isxdigit(static_cast<unsigned char>(c)) != 0 || c == ':' || c == '.';
        })) {
      return std::nullopt;
    }
    std::array<unsigned char, 16> address;
    if (inet_pton(AF_INET6, parsed->host.c_str(), address.data()) != 1) return std::nullopt;
    constexpr std::array<unsigned char, 12> kMappedPrefix = {0, 0, 0, 0, 0,    0,
                                                             0, 0, 0, 0, 0xff, 0xff};
    if (std::equal(kMappedPrefix.begin(), kMappedPrefix.end(), address.begin())) {
      return std::nullopt;
    }
    std::optional<std::string> canonical = CanonicalIpv6(parsed->host);
    if (!canonical) return std::nullopt;
    read.host = *canonical;
    return read;
  }
  const std::string& host = parsed->host;
  bool name_characters = std::all_of(host.begin(), host.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '-';
  });
  if (!name_characters || host.starts_with('.') || host.ends_with('.') ||
      host.find("..") != std::string::npos) {
    return std::nullopt;
  }
  read.host = AsciiLowercase(host);
  if (EndsInNumber(read.host)) {
    if (!IsDottedQuad(read.host)) return std::nullopt;
    return read;
  }
  read.is_name = true;
  return read;
}

}  // namespace bravebot
