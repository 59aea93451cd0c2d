// bravebot-mcp audit's findings: the whole profile at once. Each declaration
// with its transport, approval, tool list and what it may reach beyond the
// system; the checkouts that ask for it; and what holds across them: a path
// several servers reach, a settings file or a program a server may write,
// homes no declaration uses, what this kernel leaves unkept. Reads; changes
// nothing.
#ifndef BRAVEBOT_CLI_AUDIT_REPORT_H_
#define BRAVEBOT_CLI_AUDIT_REPORT_H_

#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/server_homes.h"
#include "confine/declaration.h"
#include "confine/reach_paths.h"

namespace bravebot {

struct AuditedServer {
  std::string alias;
  std::string transport;  // "stdio" or "http"
  std::string digest;
  bool approved = false;
  bool tool_list_approved = false;
  std::string runs;  // stdio: the program's absolute path; http: the url
  // What it may reach beyond what every server has (the system's programs,
  // /etc, /proc, /sys, the usual devices) and beyond its run's temporary
  // directory: its home, its directory, files, installations.
  std::vector<ReachPath> reads;
  std::vector<ReachPath> writes;
  std::vector<std::string> files_named;  // files add showed it may read
  struct Request {
    std::string checkout;
    std::vector<std::string> files;  // the settings files there asking for it
  };
  std::vector<Request> requested_in;
  std::string not_computed;  // why its reach could not be computed, or ""
  // Every path it may reach, the system's included: what another server's
  // writes are compared with. Not shown.
  std::vector<ReachPath> every_path;
  // The declaration, to tell one declared twice from two alike in digest
  // alone (the digest holds a variable's name, not its stored value).
  Declaration declaration;
};

struct AuditFinding {
  // A stable word for scripts: shared-write, shared-read, same-declaration,
  // settings-writable, program-writable, not-given, not-startable,
  // unusable-entry, unreadable-settings, probe-contradicts, probe-failed,
  // unused-home, unkept.
  std::string kind;
  bool act = false;  // one a person should act on: audit then exits 1
  std::string text;  // one sentence, for a person
  std::vector<std::string> aliases;
  std::string path;  // the path it is about, or ""
};

struct AuditReport {
  std::string profile;  // "" where the machine names none or it does not exist
  std::vector<std::string> checkouts;
  std::vector<AuditedServer> servers;
  std::vector<ServerHome> homes;
  std::string enforcement;  // which backend, and which ABI
  std::vector<AuditFinding> findings;

  bool AnyToActOn() const;
};

// Audits the profile for sessions started in `checkouts` (absolute).
Result<AuditReport> AuditProfile(const CommandContext& context,
                                 const std::vector<std::string>& checkouts);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_AUDIT_REPORT_H_
