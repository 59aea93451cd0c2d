#include "supervisor/policy/managed_policy.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "base/json_depth.h"
#include "base/text_position.h"
#include "base/unique_fd.h"
#include "confine/url.h"

namespace bravebot {
namespace {

using nlohmann::json;

// An administrator writes a few lines; anything larger is not their file (a
// device, a log) and is not read whole into memory.
constexpr size_t kMaxFileSize = 1 << 20;

std::string Lowercase(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) {
    return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  });
  return lower;
}

std::string WhoseFile(const std::string& path) {
  return path + ", which this machine's administrator manages, ";
}

// The words for a file that cannot be read as a policy: both the error
// `doctor` shows and the reason each refused server gives.
std::string BrokenReason(const std::string& path, const std::string& problem) {
  return WhoseFile(path) + problem + ", so no server starts until it is mended";
}

std::string At(std::string_view text, size_t offset) {
  auto [line, column] = LineAndColumn(text, offset);
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// Where keys and values start in text nlohmann::json has already accepted as
// JSON: version 3.11 keeps no positions, and a value of the wrong shape is
// reported by its line and column rather than quoted.
class JsonLayout {
 public:
  struct Member {
    std::string key;
    size_t key_at;
    size_t value_at;
  };

  explicit JsonLayout(std::string_view text) : text_(text) {}

  // Where the document's value starts (past a byte order mark, as the parser).
  size_t Root() const { return SkipSpace(text_.starts_with("\xEF\xBB\xBF") ? 3 : 0); }

  // The members of the object whose '{' is at `at`, in the order written,
  // repeated keys included.
  std::vector<Member> Members(size_t at) const {
    std::vector<Member> members;
    at = SkipSpace(at + 1);
    while (at < text_.size() && text_[at] == '"') {
      size_t key_end = SkipString(at);
      json key = json::parse(text_.substr(at, key_end - at), nullptr, false);
      size_t value_at = SkipSpace(SkipSpace(key_end) + 1);  // past the ':'
      members.push_back({key.is_string() ? key.get<std::string>() : "", at, value_at});
      at = SkipSpace(SkipValue(value_at));
      if (at < text_.size() && text_[at] == ',') at = SkipSpace(at + 1);
    }
    return members;
  }

 private:
  size_t SkipSpace(size_t at) const {
    while (at < text_.size() && std::strchr(" \t\r\n", text_[at]) != nullptr) ++at;
    return at;
  }

  // From an opening quote to just past its closing one.
  size_t SkipString(size_t at) const {
    for (++at; at < text_.size(); ++at) {
      if (text_[at] == '\\') {
        ++at;
      } else if (text_[at] == '"') {
        return at + 1;
      }
    }
    return text_.size();
  }

  size_t SkipValue(size_t at) const {
    if (at >= text_.size()) return at;
    if (text_[at] == '"') return SkipString(at);
    if (text_[at] == '{' || text_[at] == '[') {
      int depth = 0;
      while (at < text_.size()) {
        char c = text_[at];
        if (c == '"') {
          at = SkipString(at);
          continue;
        }
        if (c == '{' || c == '[') ++depth;
        if ((c == '}' || c == ']') && --depth == 0) return at + 1;
        ++at;
      }
      return at;
    }
    while (at < text_.size() && std::strchr(",]} \t\r\n", text_[at]) == nullptr) ++at;
    return at;
  }

  std::string_view text_;
};

// The one member named `key`, or nullptr when there is none. A key given
// twice is a problem: nlohmann::json keeps the last, other readers the first,
// and the administrator meant one of them.
const JsonLayout::Member* FindOnce(const std::vector<JsonLayout::Member>& members,
                                   std::string_view key, std::string_view shown_key,
                                   std::string_view text, std::string& problem) {
  const JsonLayout::Member* found = nullptr;
  for (const JsonLayout::Member& member : members) {
    if (member.key != key) continue;
    if (found != nullptr) {
      problem = "gives " + std::string(shown_key) + " twice (" + At(text, member.key_at) + ")";
      return nullptr;
    }
    found = &member;
  }
  return found;
}

std::optional<std::string> CanonicalIpv6(const std::string& text) {
  std::array<unsigned char, 16> address;
  if (inet_pton(AF_INET6, text.c_str(), address.data()) != 1) return std::nullopt;
  std::array<char, INET6_ADDRSTRLEN> shown;
  if (inet_ntop(AF_INET6, address.data(), shown.data(), shown.size()) == nullptr) {
    return std::nullopt;
  }
  return std::string(shown.data());
}

// A host entry's host as it is compared: lowercase, an IPv6 address without
// brackets and in its canonical spelling. Anything else is kept as written
// (lowercased) and matches only a url host spelled the same.
std::string HostEntryHost(const std::string& written) {
  std::string host = Lowercase(written);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (host.find(':') != std::string::npos) {
    if (std::optional<std::string> canonical = CanonicalIpv6(host)) return *canonical;
  }
  return host;
}

// One list item as an entry, or nothing for an item in neither form. An item
// with both a "host" and a "command" is in neither: read as both at once it
// names no server (a server has a url or a program, never both), and read as
// either it would let an allow list start more than one of its forms says.
std::optional<ManagedEntry> EntryFromJson(const json& item) {
  if (!item.is_object()) return std::nullopt;
  const bool has_host = item.contains("host");
  const bool has_command = item.contains("command");
  if (has_host == has_command) return std::nullopt;
  ManagedEntry entry;
  if (has_host) {
    const json& host = item.at("host");
    if (!host.is_string() || host.get<std::string>().empty()) return std::nullopt;
    entry.kind = ManagedEntry::Kind::kHost;
    entry.host = HostEntryHost(host.get<std::string>());
    return entry;
  }
  const json& command = item.at("command");
  if (!command.is_array() || command.empty()) return std::nullopt;
  entry.kind = ManagedEntry::Kind::kCommand;
  for (const json& word : command) {
    if (!word.is_string()) return std::nullopt;
    entry.command.push_back(word.get<std::string>());
  }
  return entry;
}

// Reads mcp.<key> into `list`, or says what is wrong with it in `problem`.
void ReadList(const json& mcp, const std::vector<JsonLayout::Member>& members,
              const std::string& key, std::string_view text,
              std::optional<std::vector<ManagedEntry>>& list, std::string& problem) {
  const std::string shown_key = "mcp." + key;
  const JsonLayout::Member* member = FindOnce(members, key, shown_key, text, problem);
  if (member == nullptr) return;
  const json& value = mcp.at(key);
  if (!value.is_array()) {
    problem = "has an " + shown_key + " that is not a list (" + At(text, member->value_at) + ")";
    return;
  }
  list.emplace();
  for (const json& item : value) {
    if (std::optional<ManagedEntry> entry = EntryFromJson(item)) list->push_back(*entry);
  }
}

// The policy in `text`, with `problem` set when the text is not one. Only mcp.allow
// and mcp.deny are read: the file cannot declare, approve or request a
// server, so whatever else it holds is read as nothing.
ManagedPolicy PolicyFromText(std::string_view text, const std::string& path) {
  ManagedPolicy policy;
  policy.path = path;
  if (NestsDeeperThan(text, kMaxJsonDepth)) {
    policy.problem =
        "is nested deeper than " + std::to_string(kMaxJsonDepth) + " levels, which no policy needs";
    return policy;
  }
  json document;
  try {
    document = json::parse(text);
  } catch (const json::parse_error& error) {
    // error.byte is one past the character that stopped the parser.
    policy.problem = "is not JSON (the parser stopped at " +
                     At(text, error.byte == 0 ? 0 : error.byte - 1) + ")";
    return policy;
  } catch (const json::exception&) {
    policy.problem = "holds a value no JSON reader can hold (a number out of range)";
    return policy;
  }
  if (!document.is_object()) {
    policy.problem = "is not a JSON object";
    return policy;
  }
  JsonLayout layout(text);
  // Kept in a variable: FindOnce answers with a pointer into it.
  const std::vector<JsonLayout::Member> root_members = layout.Members(layout.Root());
  const JsonLayout::Member* mcp_member = FindOnce(root_members, "mcp", "mcp", text, policy.problem);
  if (mcp_member == nullptr) return policy;
  const json& mcp = document.at("mcp");
  if (!mcp.is_object()) {
    policy.problem = "has an mcp that is not an object (" + At(text, mcp_member->value_at) + ")";
    return policy;
  }
  std::vector<JsonLayout::Member> members = layout.Members(mcp_member->value_at);
  ReadList(mcp, members, "allow", text, policy.allow, policy.problem);
  if (policy.broken()) return policy;
  ReadList(mcp, members, "deny", text, policy.deny, policy.problem);
  return policy;
}

struct FileText {
  std::optional<std::string> text;  // nullopt when the file is missing
  std::string problem;              // set when it exists and cannot be read
  ErrorCode code = ErrorCode::kSystem;
  int errno_value = 0;
};

FileText ReadWholeFile(const std::string& path) {
  FileText file;
  auto fail = [&file](ErrorCode code, std::string problem, int errno_value) {
    file.code = code;
    file.problem = std::move(problem);
    file.errno_value = errno_value;
    return std::move(file);
  };
  // O_NONBLOCK: a fifo put at the path does not hang every session; it is
  // refused below as not a regular file.
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  if (!fd.valid()) {
    if (errno == ENOENT || errno == ENOTDIR) return file;
    int error = errno;
    return fail(ErrorCode::kSystem, "cannot be read (" + std::string(std::strerror(error)) + ")",
                error);
  }
  struct stat status;
  if (::fstat(fd.get(), &status) != 0) {
    int error = errno;
    return fail(ErrorCode::kSystem, "cannot be read (" + std::string(std::strerror(error)) + ")",
                error);
  }
  if (!S_ISREG(status.st_mode)) return fail(ErrorCode::kCorrupt, "is not a regular file", 0);
  std::string text;
  std::array<char, 8192> buffer;
  for (;;) {
    ssize_t got = ::read(fd.get(), buffer.data(), buffer.size());
    if (got < 0) {
      if (errno == EINTR) continue;
      int error = errno;
      return fail(ErrorCode::kSystem, "cannot be read (" + std::string(std::strerror(error)) + ")",
                  error);
    }
    if (got == 0) break;
    text.append(buffer.data(), static_cast<size_t>(got));
    if (text.size() > kMaxFileSize) {
      return fail(ErrorCode::kCorrupt, "is larger than any policy (over 1 MiB)", 0);
    }
  }
  file.text = std::move(text);
  return file;
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
  read.host = Lowercase(host);
  if (EndsInNumber(read.host)) {
    if (!IsDottedQuad(read.host)) return std::nullopt;
    return read;
  }
  read.is_name = true;
  return read;
}

bool HostMatches(const std::string& entry, const UrlHost& url_host) {
  if (entry.starts_with("*.") && entry.size() > 2) {
    // Below the name, never the name itself: ".example.com" as a suffix keeps
    // out both example.com and badexample.com. Addresses have no names below.
    std::string_view suffix = std::string_view(entry).substr(1);
    return url_host.is_name && url_host.host.size() > suffix.size() &&
           url_host.host.ends_with(suffix);
  }
  return entry == url_host.host;
}

bool CommandMatches(const std::vector<std::string>& entry, const std::string& program,
                    const std::vector<std::string>& arguments) {
  if (entry.size() != arguments.size() + 1 || entry[0] != program) return false;
  return std::equal(arguments.begin(), arguments.end(), entry.begin() + 1);
}

}  // namespace

std::string ManagedFilePath(const EnvironmentLookup& getenv) {
  const char* overridden = getenv("BRAVEBOT_MANAGED_FILE");
  if (overridden != nullptr && *overridden != '\0') return overridden;
#ifdef __APPLE__
  return "/Library/Application Support/bravebot/managed.json";
#else
  return "/etc/bravebot/managed.json";
#endif
}

Result<ManagedPolicy> ParseManagedPolicy(std::string_view text, const std::string& path) {
  ManagedPolicy policy = PolicyFromText(text, path);
  if (policy.broken()) return Error(ErrorCode::kCorrupt, BrokenReason(path, policy.problem));
  return policy;
}

Result<ManagedPolicy> ReadManagedPolicy(const std::string& path) {
  FileText file = ReadWholeFile(path);
  if (!file.problem.empty()) {
    return Error(file.code, BrokenReason(path, file.problem), file.errno_value);
  }
  if (!file.text) {
    ManagedPolicy none;
    none.path = path;
    return none;
  }
  return ParseManagedPolicy(*file.text, path);
}

ManagedPolicy LoadManagedPolicy(const std::string& path) {
  FileText file = ReadWholeFile(path);
  if (file.text) return PolicyFromText(*file.text, path);
  ManagedPolicy policy;
  policy.path = path;
  policy.problem = file.problem;  // empty for a missing file: no policy
  return policy;
}

ManagedDecision Decide(const ManagedPolicy& policy, const Declaration& declaration,
                       const std::string& resolved_program) {
  // Fail closed: the file exists to keep servers from starting, and one its
  // administrator broke while editing must not start everything it was
  // written to keep out. The reason names the file, so whoever can mend it
  // knows which.
  if (policy.broken()) return {false, BrokenReason(policy.path, policy.problem)};

  const bool http = declaration.transport == Transport::kHttp;
  const std::optional<UrlHost> url_host =
      http ? ReadUrlHost(declaration.url) : std::optional<UrlHost>();
  auto matches = [&](const ManagedEntry& entry) {
    if (entry.kind == ManagedEntry::Kind::kHost) {
      return url_host.has_value() && HostMatches(entry.host, *url_host);
    }
    return !http && !resolved_program.empty() &&
           CommandMatches(entry.command, resolved_program, declaration.arguments);
  };

  if (policy.deny) {
    if (std::any_of(policy.deny->begin(), policy.deny->end(), matches)) {
      return {false, WhoseFile(policy.path) + "denies this one in its mcp.deny"};
    }
    const bool deny_names_a_host = std::any_of(
        policy.deny->begin(), policy.deny->end(),
        [](const ManagedEntry& entry) { return entry.kind == ManagedEntry::Kind::kHost; });
    if (http && !url_host && deny_names_a_host) {
      return {false, WhoseFile(policy.path) +
                         "denies hosts in its mcp.deny, and this one's url spells its host in a "
                         "way a connection could read as another"};
    }
  }
  if (policy.allow && std::none_of(policy.allow->begin(), policy.allow->end(), matches)) {
    return {false, WhoseFile(policy.path) +
                       "allows only the servers its mcp.allow names, and not this one"};
  }
  return {true, ""};
}

std::string ManagedRefusalSentence(std::string_view alias, const ManagedDecision& decision) {
  return std::string(alias) +
         " was not started, whatever was declared or approved: " + decision.reason;
}

std::vector<std::string> PinnedKeys(const ManagedPolicy& policy) {
  std::vector<std::string> keys;
  if (policy.broken()) return keys;
  if (policy.allow) keys.push_back("mcp.allow");
  if (policy.deny) keys.push_back("mcp.deny");
  return keys;
}

}  // namespace bravebot
