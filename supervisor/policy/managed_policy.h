// The machine administrator's file (managed.json): which servers it keeps from
// starting. It can refuse a server in every session on the machine and can
// never give one; it names servers by the host a url reaches or the command a
// program runs, never by alias. Pure apart from ReadManagedPolicy and
// LoadManagedPolicy, which read the file.
//
//   ManagedPolicy policy = LoadManagedPolicy(ManagedFilePath(::getenv));
//   ManagedDecision decision = Decide(policy, weather, "/opt/homebrew/bin/npx");
//   if (!decision.allowed) Say(ManagedRefusalSentence("weather", decision));
//
// The file's shape (other keys are read as nothing):
//
//   { "mcp": { "allow": [ { "host": "*.example.com" },
//                         { "command": ["/opt/homebrew/bin/npx", "-y", "pkg@1.4.0"] } ],
//              "deny":  [ { "host": "staging.example.com" } ] } }
#ifndef BRAVEBOT_SUPERVISOR_POLICY_MANAGED_POLICY_H_
#define BRAVEBOT_SUPERVISOR_POLICY_MANAGED_POLICY_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/environment.h"
#include "base/result.h"
#include "confine/declaration.h"

namespace bravebot {

// The administrator file's path: BRAVEBOT_MANAGED_FILE when set and not empty,
// else /etc/bravebot/managed.json (Linux) or
// /Library/Application Support/bravebot/managed.json (macOS).
std::string ManagedFilePath(const EnvironmentLookup& getenv);

// One entry of mcp.allow or mcp.deny, in one of its two forms.
struct ManagedEntry {
  enum class Kind { kHost, kCommand };
  Kind kind = Kind::kHost;

  // kHost: the host, lowercase, without brackets around an IPv6 address (which
  // is kept in its canonical spelling). "*.example.com" names every host below
  // example.com and not example.com itself.
  std::string host;
  // kCommand: the command line, the program first, word for word.
  std::vector<std::string> command;

  bool operator==(const ManagedEntry&) const = default;
};

struct ManagedPolicy {
  std::string path;  // the file, named in every refusal

  // Absent (nullopt) and present-but-empty differ: no allow list starts every
  // server not denied, and "allow": [] starts nothing. Entries in neither form
  // are left out, so a list of nothing else is present and empty.
  std::optional<std::vector<ManagedEntry>> allow;
  std::optional<std::vector<ManagedEntry>> deny;

  // Not empty while the file exists and cannot be read as a policy: what is
  // wrong with it, in words after its path ("is not JSON (...)"), never
  // quoting it. Every server is refused meanwhile.
  std::string problem;

  bool broken() const { return !problem.empty(); }
};

// Reads the text of the file at `path`. A file that is not JSON, is not a JSON
// object, or whose mcp, mcp.allow or mcp.deny is present in the wrong shape
// (or given twice) is kCorrupt, naming `path`, the line and the column, and
// never quoting the text.
Result<ManagedPolicy> ParseManagedPolicy(std::string_view text, const std::string& path);

// Reads the file at `path`. A missing file is the empty policy, which allows
// every server; one that cannot be read is kSystem (or kCorrupt when it is not
// a regular file, or too large to be one an administrator wrote).
Result<ManagedPolicy> ReadManagedPolicy(const std::string& path);

// ReadManagedPolicy, where a file that cannot be read or parsed gives the
// policy that refuses every server, saying why (ManagedPolicy::problem).
ManagedPolicy LoadManagedPolicy(const std::string& path);

// Whether a server may start, and when not, why: the words that follow "not
// started: " in `mcp list`, beginning with the file's path.
struct ManagedDecision {
  bool allowed = true;
  std::string reason;
};

// Decides for `declaration`. `resolved_program` is the absolute path its
// program was found at (the path `mcp get` shows as runs), and empty for an
// http server or a program that was not found. The alias and the variables
// are never part of a match.
ManagedDecision Decide(const ManagedPolicy& policy, const Declaration& declaration,
                       const std::string& resolved_program);

// The sentence a session says as it opens about a refused server:
// "weather was not started, whatever was declared or approved: <reason>".
std::string ManagedRefusalSentence(std::string_view alias, const ManagedDecision& decision);

// What the file pins, for `bravebot-mcp doctor`: "mcp.allow" and "mcp.deny",
// each where it is present. A broken file pins nothing readable; show its
// problem instead.
std::vector<std::string> PinnedKeys(const ManagedPolicy& policy);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_POLICY_MANAGED_POLICY_H_
