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

#include "base/files.h"
#include "base/text_position.h"
#include "base/unique_fd.h"
#include "confine/url_host.h"
#include "supervisor/store/file_bounds.h"
#include "supervisor/store/json_text.h"

namespace bravebot {
namespace {

using nlohmann::json;

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

// The member named `key`, or nullptr when there is none. ParseJsonText has
// refused a key given twice already, so there is at most one.
const JsonLayout::Member* FindMember(const std::vector<JsonLayout::Member>& members,
                                     std::string_view key) {
  for (const JsonLayout::Member& member : members) {
    if (member.key == key) return &member;
  }
  return nullptr;
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
    entry.host = CanonicalHost(host.get<std::string>());
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
  const JsonLayout::Member* member = FindMember(members, key);
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
  Result<json> parsed = ParseJsonText(text);
  if (!parsed) {
    policy.problem = parsed.error().message();
    return policy;
  }
  const json& document = *parsed;
  if (!document.is_object()) {
    policy.problem = "is not a JSON object";
    return policy;
  }
  JsonLayout layout(text);
  // Kept in a variable: FindMember answers with a pointer into it.
  const std::vector<JsonLayout::Member> root_members = layout.Members(layout.Root());
  const JsonLayout::Member* mcp_member = FindMember(root_members, "mcp");
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
  Result<std::optional<std::string>> text = ReadWholeFile(path, kAdministratorFileBound);
  if (!text) {
    return Error(text.error().code(), BrokenReason(path, text.error().message()),
                 text.error().errno_value());
  }
  if (!*text) {
    ManagedPolicy none;
    none.path = path;
    return none;
  }
  return ParseManagedPolicy(**text, path);
}

ManagedPolicy LoadManagedPolicy(const std::string& path) {
  Result<std::optional<std::string>> text = ReadWholeFile(path, kAdministratorFileBound);
  if (text && *text) return PolicyFromText(**text, path);
  ManagedPolicy policy;
  policy.path = path;
  if (!text) policy.problem = text.error().message();  // a missing file is no policy
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
