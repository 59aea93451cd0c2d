#include "cli/audit_report.h"

#include <algorithm>
#include <set>

#include "base/shown_text.h"
#include "cli/declaration_view.h"
#include "cli/profile_access.h"
#include "cli/reach_view.h"
#include "cli/start_options.h"
#include "confine/digest.h"
#include "confine/paths.h"
#include "confine/system_paths.h"
#include "supervisor/policy/session_plan.h"
#include "supervisor/servers/server_confinement.h"
#include "supervisor/store/approval_store.h"
#include "supervisor/store/declaration_store.h"

namespace bravebot {
namespace {

bool MayWrite(PathAccess access) {
  return access == PathAccess::kReadWrite || access == PathAccess::kReadWriteExecute;
}

// True where `inner` is `outer`, or lies beneath it and `outer` is a
// directory given whole.
bool Within(const ReachPath& inner, const ReachPath& outer) {
  return inner.path == outer.path || (!outer.file_only && IsSameOrBeneath(inner.path, outer.path));
}

std::string JoinedAliases(const std::vector<std::string>& aliases) {
  std::string joined;
  for (size_t i = 0; i < aliases.size(); ++i) {
    joined += (i == 0 ? "" : i + 1 == aliases.size() ? " and " : ", ") + aliases[i];
  }
  return joined;
}

std::vector<ReachPath> Reachable(const AuditedServer& server) {
  std::vector<ReachPath> all = server.writes;
  all.insert(all.end(), server.reads.begin(), server.reads.end());
  return all;
}

// A path two servers may both reach: what one writes there, the other reads
// (or both write), so one server can steer another; both reading it alone is
// said, not acted on.
void FindSharedPaths(const std::vector<AuditedServer>& servers,
                     std::vector<AuditFinding>& findings) {
  for (size_t i = 0; i < servers.size(); ++i) {
    for (size_t j = i + 1; j < servers.size(); ++j) {
      if (servers[i].digest == servers[j].digest) {
        // One declaration under two aliases: one home, and nothing the
        // other does not do already.
        findings.push_back({"same-declaration",
                            false,
                            servers[i].alias + " and " + servers[j].alias +
                                " are one declaration under two aliases, so they share one "
                                "home: bravebot-mcp remove one of them",
                            {servers[i].alias, servers[j].alias},
                            ""});
        continue;
      }
      for (const ReachPath& first : Reachable(servers[i])) {
        for (const ReachPath& second : Reachable(servers[j])) {
          const bool first_inside = Within(first, second);
          if (!first_inside && !Within(second, first)) continue;
          const std::string& path = first_inside ? first.path : second.path;
          const std::vector<std::string> aliases = {servers[i].alias, servers[j].alias};
          std::vector<std::string> writers;
          if (MayWrite(first.access)) writers.push_back(servers[i].alias);
          if (MayWrite(second.access)) writers.push_back(servers[j].alias);
          if (writers.empty()) {
            findings.push_back({"shared-read", false,
                                JoinedAliases(aliases) + " may both read " + DisplayWord(path),
                                aliases, path});
          } else {
            findings.push_back(
                {"shared-write", true,
                 JoinedAliases(aliases) + " may both reach " + DisplayWord(path) + ", and " +
                     JoinedAliases(writers) + (writers.size() == 1 ? " may" : " may both") +
                     " write it: what one server writes there, the other reads; give each a "
                     "directory of its own",
                 aliases, path});
          }
        }
      }
    }
  }
}

// The directories of PATH's value, absolute ones only (a relative entry is
// taken from where the server starts, which it may write anyway).
std::vector<std::string> PathEntries(const std::optional<std::string>& value) {
  std::vector<std::string> entries;
  if (!value) return entries;
  size_t start = 0;
  for (;;) {
    const size_t colon = value->find(':', start);
    const std::string entry = value->substr(start, colon - start);
    if (!entry.empty() && entry.front() == '/') entries.push_back(entry);
    if (colon == std::string::npos) return entries;
    start = colon + 1;
  }
}

// A declaration whose program, or a PATH entry it finds programs through,
// lies where a server may write: that server can change what it runs before
// its next start.
void FindWritablePrograms(const std::vector<AuditedServer>& servers,
                          const std::vector<Declaration>& declarations,
                          const CommandContext& context, std::vector<AuditFinding>& findings) {
  for (const AuditedServer& server : servers) {
    if (server.transport != "stdio" || !server.not_computed.empty()) continue;
    const auto declaration =
        std::find_if(declarations.begin(), declarations.end(),
                     [&](const Declaration& each) { return each.alias == server.alias; });
    std::vector<std::pair<std::string, std::string>> named = {
        {server.runs, "runs " + DisplayWord(server.runs)}};
    for (const std::string& entry :
         PathEntries(ValueGivenToServer(*declaration, "PATH", context.getenv))) {
      named.emplace_back(entry, "finds programs through the PATH entry " + DisplayWord(entry));
    }
    for (const auto& [path, what] : named) {
      for (const AuditedServer& writer : servers) {
        for (const ReachPath& written : writer.writes) {
          if (written.file_only || !IsSameOrBeneath(path, written.path)) continue;
          findings.push_back(
              {"program-writable",
               true,
               server.alias + " " + what + ", in " + DisplayWord(written.path) + ", which " +
                   (writer.alias == server.alias ? "it" : writer.alias) +
                   " may write: what it runs can be changed before its next start; install "
                   "the program where no server may write",
               {server.alias, writer.alias},
               path});
        }
      }
    }
  }
}

void AuditStdioServer(const Declaration& declaration, const ServerStartOptions& start,
                      AuditedServer& server, AuditReport& report, std::set<std::string>& unkept) {
  Result<Reach> reach = ComputeServerReach(declaration, start, kRunDirectoryShown);
  Result<Confinement> confined =
      reach ? ConfineServerReach(std::move(*reach), start, declaration.alias, ProbeKernelOnce())
            : Result<Confinement>(reach.error());
  if (!confined) {
    server.not_computed = confined.error().message();
    report.findings.push_back({"not-startable",
                               true,
                               declaration.alias + " cannot start as declared: " +
                                   EscapeControlCharacters(server.not_computed),
                               {declaration.alias},
                               ""});
    return;
  }
  server.runs = confined->reach.program;
  const std::vector<ReachPath>& paths = confined->reach.paths;
  for (const ReachPath& path : paths) {
    if (IsSystemPathReason(path.reason) || path.path == kRunDirectoryShown) continue;
    if (MayWrite(path.access)) {
      server.writes.push_back(path);
      continue;
    }
    // A directory of the system's given again for a reason of its own
    // (/usr/bin, where its program is) gives nothing beyond the system.
    const bool the_systems = std::any_of(paths.begin(), paths.end(), [&](const ReachPath& system) {
      return IsSystemPathReason(system.reason) && !MayWrite(system.access) && Within(path, system);
    });
    if (!the_systems) server.reads.push_back(path);
  }
  if (report.enforcement.empty()) {
    std::string words = Enforcement(*confined);
    words.resize(words.find('\n'));
    const std::string except = ", except:";
    if (words.ends_with(except)) {
      words.replace(words.size() - except.size(), except.size(),
                    ", but for what it does not keep (below)");
    }
    report.enforcement = words;
  }
  for (const std::string& promise : UnkeptPromises(*confined)) unkept.insert(promise);
}

}  // namespace

bool AuditReport::AnyToActOn() const {
  return std::any_of(findings.begin(), findings.end(),
                     [](const AuditFinding& finding) { return finding.act; });
}

Result<AuditReport> AuditProfile(const CommandContext& context,
                                 const std::vector<std::string>& checkouts) {
  AuditReport report;
  report.checkouts = checkouts;
  BRAVEBOT_ASSIGN_OR_RETURN(std::optional<ProfileDirectory> profile, OpenProfileToRead(context));
  if (!profile) return report;
  report.profile = profile->path();
  BRAVEBOT_ASSIGN_OR_RETURN(DeclarationFile file, DeclarationStore(*profile).Read());
  BRAVEBOT_ASSIGN_OR_RETURN(ApprovalFile approvals, ApprovalStore(*profile).Read());
  for (const UnusableEntry& entry : file.unusable) {
    report.findings.push_back(
        {"unusable-entry",
         true,
         "the entry " + DisplayWord(entry.alias) + " of mcp.json cannot be used: " + entry.problem,
         {entry.alias},
         ""});
  }

  const ManagedPolicy policy = LoadManagedPolicy(ManagedFilePath(context.getenv));
  std::vector<SessionPlan> plans;
  for (const std::string& checkout : checkouts) {
    SessionInputs inputs{checkout,   Asking::kSomebody, /*incognito=*/false, &*profile,  &file,
                         &approvals, &policy,           context.getenv,      &context.fs};
    BRAVEBOT_ASSIGN_OR_RETURN(SessionPlan plan, PlanSession(inputs));
    for (const ServerWritableSettings& writable : plan.server_writable) {
      report.findings.push_back({"settings-writable", true, writable.sentence, {}, writable.path});
    }
    for (const Error& unreadable : plan.unreadable) {
      report.findings.push_back({"unreadable-settings", true, unreadable.message(), {}, ""});
    }
    plans.push_back(std::move(plan));
  }

  const ServerStartOptions start = StartOptionsFor(context, *profile);
  std::set<std::string> unkept;
  for (const Declaration& declaration : file.declarations) {
    AuditedServer server;
    server.alias = declaration.alias;
    server.digest = ComputeDigest(declaration).hex;
    server.approved = approvals.Approves(server.digest);
    server.tool_list_approved = !approvals.ApprovedToolList(server.digest).empty();
    server.files_named = declaration.may_read;
    for (size_t i = 0; i < plans.size(); ++i) {
      for (const PlannedServer& planned : plans[i].requested) {
        if (planned.alias == declaration.alias) {
          server.requested_in.push_back({checkouts[i], planned.requested_by});
        }
      }
    }
    if (declaration.transport == Transport::kHttp) {
      server.transport = "http";
      server.runs = declaration.url;
    } else {
      server.transport = "stdio";
      AuditStdioServer(declaration, start, server, report, unkept);
    }
    report.servers.push_back(std::move(server));
  }
  FindSharedPaths(report.servers, report.findings);
  FindWritablePrograms(report.servers, file.declarations, context, report.findings);

  report.homes = FindServerHomes(*profile, file);
  for (const ServerHome& home : report.homes) {
    if (!home.aliases.empty()) continue;
    report.findings.push_back({"unused-home",
                               false,
                               "no declaration uses the home " + DisplayWord(home.path) + " (" +
                                   DisplaySize(home.bytes_on_disk) +
                                   ") any longer: bravebot-mcp audit --prune removes it",
                               {},
                               home.path});
  }
  for (const std::string& promise : unkept) {
    report.findings.push_back({"unkept", false, "this machine does not keep: " + promise, {}, ""});
  }
  return report;
}

}  // namespace bravebot
