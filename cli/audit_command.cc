// bravebot-mcp audit: the whole profile at once, for a person and for CI
// (cli/audit_report.h); exits 1 when a finding is one to act on. --probe
// proves each server's reach as reach --probe does; --prune removes the
// homes no declaration uses any longer.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "base/shown_text.h"
#include "cli/audit_report.h"
#include "cli/audit_view.h"
#include "cli/command.h"
#include "cli/declaration_view.h"
#include "cli/profile_access.h"
#include "cli/reach_probe.h"
#include "cli/terminal_questions.h"
#include "cli/typed_ahead.h"
#include "confine/paths.h"
#include "supervisor/store/declaration_store.h"
#include "supervisor/store/server_directories.h"

namespace bravebot {
namespace {

SimpleCommandSpec AuditOptions() {
  SimpleCommandSpec spec{
      "audit",
      "Audits every declared MCP server at once: its transport, approval and tool list, what it "
      "may reach beyond the system, the checkouts that ask for it, and what holds across them "
      "(a path several servers reach, a settings file or a program a server may write, homes no "
      "declaration uses). Exits with status 1 when a finding is one to act on.",
      /*takes_alias=*/false,
      /*takes_json=*/true,
      {{"--probe", "run each server's probes under its confinement, as reach --probe does"},
       {"--prune", "remove the homes no declaration uses any longer, after listing them"},
       {"--yes", "with --prune, remove without asking (needed where nobody is at a terminal)"}}};
  spec.takes_paths = true;
  spec.path_meaning = "the checkouts to audit sessions in (the current directory by default)";
  return spec;
}

// Each server's probes, as reach --probe runs them, captured: their
// output, and whether every attempt came out as the reach says.
struct ProbeRun {
  std::string output;
  int status = kExitFailed;
};

ProbeRun ProbeServer(const Declaration& declaration, const ProfileDirectory& profile, bool json,
                     CommandContext& context) {
  std::ostringstream captured;
  std::ostringstream refused;
  CommandContext probing{context.in,          captured,  refused, context.getenv, context.cwd,
                         context.at_terminal, context.fs};
  const int status = RunReachProbe(declaration, profile, json, probing);
  return {captured.str() + refused.str(), status};
}

// Runs each program server's probes, before anything is shown: their
// output is printed first (as JSON, under each server's "probe"), and what
// they found is among the findings.
void RunProbes(AuditReport& report, const ProfileDirectory& profile, bool json,
               std::vector<nlohmann::json>& probes, CommandContext& context) {
  for (const AuditedServer& server : report.servers) {
    probes.emplace_back(nullptr);
    if (server.transport != "stdio" || !server.not_computed.empty()) continue;
    ProbeRun run = ProbeServer(server.declaration, profile, json, context);
    nlohmann::json parsed =
        json ? nlohmann::json::parse(run.output, nullptr, false) : nlohmann::json();
    const bool ran = !json || (parsed.is_object() && !parsed.is_discarded());
    if (json && ran) probes.back() = std::move(parsed);
    if (!json) context.out << run.output << "\n";
    if (!ran || (run.status != kExitOk && run.status != kExitFailed)) {
      report.findings.push_back({"probe-failed",
                                 true,
                                 server.alias + "'s probes could not run: " +
                                     EscapeControlCharacters(run.output.substr(0, 400)),
                                 {server.alias},
                                 ""});
    } else if (run.status != kExitOk) {
      report.findings.push_back({"probe-contradicts",
                                 true,
                                 server.alias +
                                     "'s probes found an attempt that came out otherwise than "
                                     "its reach says, or could not run (above)",
                                 {server.alias},
                                 ""});
    }
  }
}

// The homes no declaration uses, read again from mcp.json as it is now.
Result<std::vector<ServerHome>> UnusedHomes(const ProfileDirectory& profile) {
  BRAVEBOT_ASSIGN_OR_RETURN(DeclarationFile file, DeclarationStore(profile).Read());
  if (!file.unusable.empty()) {
    return Error(ErrorCode::kRefused,
                 "mcp.json has an entry that cannot be used, whose home may be one of these: "
                 "nothing was removed; mend the entry first (bravebot-mcp list says which)");
  }
  std::vector<ServerHome> unused;
  for (ServerHome& home : FindServerHomes(profile, file)) {
    if (home.aliases.empty()) unused.push_back(std::move(home));
  }
  return unused;
}

// Lists the homes no declaration uses and removes them: after a yes at a
// terminal, or with --yes; each still unused when its turn comes.
int Prune(const ProfileDirectory& profile, bool yes, CommandContext& context) {
  Result<std::vector<ServerHome>> unused = UnusedHomes(profile);
  if (!unused) return Report(context, "audit", unused.error());
  if (unused->empty()) {
    context.out << "no home to prune: every one under mcp-home is a declaration's\n";
    return kExitOk;
  }
  context.out << "homes no declaration uses:\n";
  for (const ServerHome& home : *unused) {
    context.out << "  " << DisplayWord(home.path) << "  " << DisplayHomeSize(home) << "\n";
  }
  if (!yes && !context.at_terminal) {
    return Report(context, "audit",
                  Error(ErrorCode::kRefused,
                        "nothing was removed: with nobody at a terminal to ask, audit --prune "
                        "removes only with --yes"));
  }
  if (!yes) {
    DiscardTypedAhead(context);
    context.out << "Remove " << (unused->size() == 1 ? "it" : "them") << "? [y/N] " << std::flush;
    std::string answer;
    if (!std::getline(context.in, answer) || !IsYes(answer)) {
      context.out << "nothing was removed\n";
      return kExitOk;
    }
  }
  // mcp.json may have changed while the question waited.
  Result<std::vector<ServerHome>> still = UnusedHomes(profile);
  if (!still) return Report(context, "audit", still.error());
  int status = kExitOk;
  for (const ServerHome& home : *unused) {
    const bool still_unused =
        std::any_of(still->begin(), still->end(),
                    [&](const ServerHome& each) { return each.digest == home.digest; });
    if (!still_unused) {
      context.out << "kept " << DisplayWord(home.path) << ": a declaration uses it now\n";
    } else if (RemoveRunDirectory(home.path)) {
      context.out << "removed " << DisplayWord(home.path) << "\n";
    } else {
      status = kExitFailed;
      context.err << "bravebot-mcp audit: " << DisplayWord(home.path)
                  << " could not be removed whole: what is left of it is still there\n";
    }
  }
  return status;
}

int RunAudit(const SimpleOptions& options, CommandContext& context) {
  const bool prune = options.flags.contains("--prune");
  if (prune && IsIncognito(context)) {
    return Report(context, "audit",
                  Error(ErrorCode::kRefused,
                        "an incognito session removes nothing under the profile directory: run "
                        "audit --prune outside it"));
  }
  if (prune && options.json) {
    return Report(context, "audit",
                  Error(ErrorCode::kUsage,
                        "--prune asks and says what it removed: it takes no "
                        "--json"));
  }
  std::vector<std::string> checkouts;
  for (const std::string& path : options.paths) {
    const std::string checkout = AbsolutePath(path, context.cwd);
    if (context.fs.KindOf(checkout, Follow::kYes) != FileKind::kDirectory) {
      return Report(context, "audit",
                    Error(ErrorCode::kUsage, DisplayWord(checkout) +
                                                 " is not a directory: audit takes the checkouts "
                                                 "sessions start in"));
    }
    checkouts.push_back(checkout);
  }
  if (checkouts.empty()) checkouts.push_back(context.cwd);

  Result<AuditReport> report = AuditProfile(context, checkouts);
  if (!report) return Report(context, "audit", report.error());
  Result<std::optional<ProfileDirectory>> profile = OpenProfileToRead(context);
  if (!profile) return Report(context, "audit", profile.error());
  std::vector<nlohmann::json> probes;
  if (options.flags.contains("--probe") && *profile) {
    RunProbes(*report, **profile, options.json, probes, context);
  }
  if (options.json) {
    nlohmann::json shown = AuditJson(*report);
    for (size_t i = 0; i < probes.size(); ++i) shown["servers"][i]["probe"] = probes[i];
    context.out << JsonText(shown) << "\n";
  } else {
    context.out << DisplayAudit(*report);
  }
  int status = report->AnyToActOn() ? kExitFailed : kExitOk;
  if (prune && *profile) {
    context.out << "\n";
    if (Prune(**profile, options.flags.contains("--yes"), context) != kExitOk) {
      status = kExitFailed;
    }
  }
  return status;
}

}  // namespace

const CommandSpec kAuditCommand = {"audit", "audit every declaration, and what holds across them",
                                   "", AuditOptions, RunAudit};

}  // namespace bravebot
