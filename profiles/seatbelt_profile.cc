#include "profiles/seatbelt_profile.h"

#include <cstdio>

namespace bravebot {
namespace {

// The mach services a program needs to resolve a host name and to check a
// certificate: a server that speaks to the network cannot do without them.
constexpr const char* kMachServices[] = {
    "com.apple.system.opendirectoryd.libinfo",  // getaddrinfo, getpwuid
    "com.apple.dnssd.service",                  // mDNSResponder's resolver
    "com.apple.SystemConfiguration.configd",    // the resolver's settings
    "com.apple.trustd",                         // certificate trust
    "com.apple.trustd.agent",
    "com.apple.ocspd",  // certificate revocation
};

// A comment line: the reason is the project's text or a path, and a line
// break in it would end the comment and start a rule; a control byte or
// one past ASCII (read as EOF by a reader with signed chars) might too.
std::string Comment(std::string_view text) {
  std::string line = ";; ";
  for (unsigned char c : text) line += (c < 0x20 || c >= 0x7f) ? '?' : static_cast<char>(c);
  return line + "\n";
}

std::string Filter(const ReachPath& path) {
  return std::string(path.file_only ? "(literal " : "(subpath ") +
         SeatbeltString(CanonicalMacPath(path.path)) + ")";
}

bool Executes(PathAccess access) {
  return access == PathAccess::kReadExecute || access == PathAccess::kReadWriteExecute;
}

bool Writes(PathAccess access) {
  return access == PathAccess::kReadWrite || access == PathAccess::kReadWriteExecute;
}

}  // namespace

std::string CanonicalMacPath(std::string_view path) {
  for (std::string_view linked : {"/tmp", "/var", "/etc"}) {
    if (path == linked || (path.starts_with(linked) && path[linked.size()] == '/')) {
      return "/private" + std::string(path);
    }
  }
  return std::string(path);
}

std::string SeatbeltString(std::string_view text) {
  std::string quoted = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += static_cast<char>(c);
    } else if (c < 0x20 || c >= 0x7f) {
      char escaped[5];
      std::snprintf(escaped, sizeof(escaped), "\\x%02x", c);
      quoted += escaped;
    } else {
      quoted += static_cast<char>(c);
    }
  }
  return quoted + "\"";
}

std::string RenderSeatbeltProfile(const Reach& reach) {
  std::string profile = "(version 1)\n(deny default)\n\n";
  profile += Comment("a look at any path: whether something is there, and what kind");
  profile += "(allow file-read-metadata)\n\n";

  profile += Comment("what a program needs to start and run");
  profile += "(allow process-fork)\n";
  profile += "(allow signal (target self))\n";
  profile += "(allow sysctl-read)\n";
  profile += "(allow mach-lookup";
  for (const char* service : kMachServices) {
    profile += "\n  (global-name " + SeatbeltString(service) + ")";
  }
  profile += ")\n\n";

  for (const ReachPath& path : reach.paths) {
    profile += Comment(path.reason);
    const std::string filter = Filter(path);
    profile += "(allow file-read* " + filter + ")\n";
    if (Executes(path.access)) profile += "(allow process-exec " + filter + ")\n";
    if (Writes(path.access)) profile += "(allow file-write* " + filter + ")\n";
  }
  profile += "\n";

  // A local socket is connected to by its path, which the filter matches;
  // an address on the network by (remote ip). It binds and listens nowhere.
  profile += Comment("a local socket only beneath a directory it may write, the network by IP");
  profile += "(allow network-outbound";
  for (const std::string& directory : reach.socket_directories) {
    profile += "\n  (subpath " + SeatbeltString(CanonicalMacPath(directory)) + ")";
  }
  profile += "\n  (remote ip \"*:*\"))\n\n";

  profile += Comment("no .git written anywhere, nor made: git would run what it holds");
  // A disk on macOS ignores case unless made otherwise: .GIT is .git there.
  profile += "(deny file-write* (regex #\"(^|/)\\.[Gg][Ii][Tt](/|$)\"))\n";
  return profile;
}

}  // namespace bravebot
