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
#include "supervisor/servers/backend_choice.h"
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

// What `server` may read beyond the system: its reads, and each file a
// stored value names as it is named (a link planted in its place leads
// elsewhere, and the place is what another server may write).
std::vector<ReachPath> ReadsAsNamed(const AuditedServer& server) {
  std::vector<ReachPath> reads = server.reads;
  for (const std::string& file : server.files_named) {
    reads.push_back({file, PathAccess::kRead, /*file_only=*/true, "a file add showed it may read"});
  }
  return reads;
}

// A path both `writer` may write and `reader` may reach, or "".
std::string SharedPath(const std::vector<ReachPath>& writes, const std::vector<ReachPath>& reach) {
  for (const ReachPath& written : writes) {
    for (const ReachPath& reached : reach) {
      if (Within(reached, written)) return reached.path;
      if (Within(written, reached)) return written.path;
    }
  }
  return "";
}

void SayShared(const AuditedServer& first, const AuditedServer& second, const std::string& path,
               const std::vector<std::string>& writers, std::vector<AuditFinding>& findings) {
  const std::vector<std::string> aliases = {first.alias, second.alias};
  if (writers.empty()) {
    findings.push_back({"shared-read", false,
                        JoinedAliases(aliases) + " may both read " + DisplayWord(path), aliases,
                        path});
    return;
  }
  findings.push_back({"shared-write", true,
                      JoinedAliases(aliases) + " may both reach " + DisplayWord(path) + ", and " +
                          JoinedAliases(writers) + (writers.size() == 1 ? " may" : " may both") +
                          " write it: what one server writes there, the other reads; give each "
                          "a directory of its own",
                      aliases, path});
}

bool SameButForAlias(Declaration first, const Declaration& second) {
  first.alias = second.alias;
  return first == second;
}

// A path two servers may both reach where one may write: what one writes
// there, the other reads (a system directory included: a --dir under /opt
// is read by every server). Both reading a path beyond the system alone is
// said, not acted on.
void FindSharedPaths(const std::vector<AuditedServer>& servers,
                     std::vector<AuditFinding>& findings) {
  for (size_t i = 0; i < servers.size(); ++i) {
    for (size_t j = i + 1; j < servers.size(); ++j) {
      const AuditedServer& first = servers[i];
      const AuditedServer& second = servers[j];
      if (SameButForAlias(first.declaration, second.declaration)) {
        // One declaration under two aliases: one home, and nothing the
        // other does not do already.
        findings.push_back({"same-declaration",
                            false,
                            first.alias + " and " + second.alias +
                                " are one declaration under two aliases, so they share one "
                                "home: bravebot-mcp remove one of them",
                            {first.alias, second.alias},
                            ""});
        continue;
      }
      std::vector<ReachPath> first_reach = first.every_path;
      std::vector<ReachPath> second_reach = second.every_path;
      const std::vector<ReachPath> first_named = ReadsAsNamed(first);
      const std::vector<ReachPath> second_named = ReadsAsNamed(second);
      first_reach.insert(first_reach.end(), first_named.begin(), first_named.end());
      second_reach.insert(second_reach.end(), second_named.begin(), second_named.end());
      const std::string first_writes = SharedPath(first.writes, second_reach);
      const std::string second_writes = SharedPath(second.writes, first_reach);
      if (!first_writes.empty() && !second_writes.empty()) {
        SayShared(first, second, first_writes, {first.alias, second.alias}, findings);
      } else if (!first_writes.empty()) {
        SayShared(first, second, first_writes, {first.alias}, findings);
      } else if (!second_writes.empty()) {
        SayShared(first, second, second_writes, {second.alias}, findings);
      } else {
        for (const ReachPath& read : first_named) {
          for (const ReachPath& other : second_named) {
            if (Within(read, other) || Within(other, read)) {
              SayShared(first, second, Within(read, other) ? read.path : other.path, {}, findings);
            }
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
// lies where a server may write, as named or where its links lead: that
// server can change what it runs before its next start.
void FindWritablePrograms(const std::vector<AuditedServer>& servers, const CommandContext& context,
                          std::vector<AuditFinding>& findings) {
  for (const AuditedServer& server : servers) {
    if (server.transport != "stdio" || !server.not_computed.empty()) continue;
    std::vector<std::pair<std::string, std::string>> named = {
        {server.runs, "runs " + DisplayWord(server.runs)}};
    for (const std::string& entry :
         PathEntries(ValueGivenToServer(server.declaration, "PATH", context.getenv))) {
      named.emplace_back(entry, "finds programs through the PATH entry " + DisplayWord(entry));
    }
    for (const auto& [path, what] : named) {
      const std::string resolved = context.fs.ResolvedPath(path).value_or(path);
      for (const AuditedServer& writer : servers) {
        const std::string written = SharedPath(
            writer.writes,
            {{path, PathAccess::kRead, true, ""}, {resolved, PathAccess::kRead, true, ""}});
        if (written.empty()) continue;
        findings.push_back(
            {"program-writable",
             true,
             server.alias + " " + what + ", which " +
                 (writer.alias == server.alias ? "it" : writer.alias) +
                 " may write: what it runs can be changed before its next start; install the "
                 "program where no server may write",
             {server.alias, writer.alias},
             path});
      }
    }
  }
}

// True for a path every server has: given for a system reason, in one of
// the system's trees, and not in the person's home (a link of /etc may lead
// anywhere); or beneath such a directory, given again for a reason of its
// own (/usr/bin, where its program is).
bool IsTheSystems(const ReachPath& path, const std::vector<ReachPath>& paths,
                  const std::string& home) {
  const auto systems = [&](const ReachPath& each) {
    return IsSystemPathReason(each.reason) && IsInSystemTree(each.path) &&
           (home.empty() || !IsSameOrBeneath(each.path, home));
  };
  if (systems(path)) return true;
  return !MayWrite(path.access) &&
         std::any_of(paths.begin(), paths.end(), [&](const ReachPath& system) {
           return systems(system) && !MayWrite(system.access) && Within(path, system);
         });
}

void AuditStdioServer(const Declaration& declaration, const ServerStartOptions& start,
                      AuditedServer& server, AuditReport& report, std::set<std::string>& unkept) {
  const std::string& home = start.user_home;
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
  server.every_path = confined->reach.paths;
  for (const ReachPath& path : confined->reach.paths) {
    if (path.path == kRunDirectoryShown || IsTheSystems(path, confined->reach.paths, home)) {
      continue;
    }
    (MayWrite(path.access) ? server.writes : server.reads).push_back(path);
  }
  for (const NotGranted& refused : confined->reach.not_granted) {
    // A link planted where a server may write, or a program there: what a
    // server may have done, the reach refused; who did it is to be found.
    if (refused.why.find("a server may have planted it") == std::string::npos &&
        refused.why.find("a directory a server may write") == std::string::npos) {
      continue;
    }
    report.findings.push_back({"not-given",
                               true,
                               declaration.alias + " is not given " + DisplayWord(refused.path) +
                                   ": " + EscapeControlCharacters(refused.why),
                               {declaration.alias},
                               refused.path});
  }
  if (confined->backend.backend == Backend::kNone) {
    report.findings.push_back({"not-startable",
                               true,
                               declaration.alias + " is not started here: " +
                                   EscapeControlCharacters(confined->backend.why_none),
                               {declaration.alias},
                               ""});
    return;
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
    server.declaration = declaration;
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
  FindWritablePrograms(report.servers, context, report.findings);

  report.homes = FindServerHomes(*profile, file);
  for (const ServerHome& home : report.homes) {
    if (!home.aliases.empty()) continue;
    report.findings.push_back({"unused-home",
                               false,
                               "no declaration uses the home " + DisplayWord(home.path) + " (" +
                                   DisplayHomeSize(home) +
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
