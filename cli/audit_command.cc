// bravebot-mcp audit: the whole profile at once, for a person and for CI
// (cli/audit_report.h); exits 1 when a finding is one to act on. --probe
// proves each server's reach as reach --probe does; --prune removes the
// homes no declaration uses any longer.
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "base/shown_text.h"
#include "cli/audit_report.h"
#include "cli/audit_view.h"
#include "cli/command.h"
#include "cli/declaration_lookup.h"
#include "cli/declaration_view.h"
#include "cli/profile_access.h"
#include "cli/reach_probe.h"
#include "cli/terminal_questions.h"
#include "cli/typed_ahead.h"
#include "confine/paths.h"
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
       {"--prune", "remove the homes no declaration uses any longer, after listing them"}}};
  spec.takes_paths = true;
  spec.path_meaning = "the checkouts to audit sessions in (the current directory by default)";
  return spec;
}

// Each server's probes, as reach --probe runs them, captured: their
// output, and whether every attempt came out as the reach says.
struct ProbeRun {
  std::string output;
  bool agrees = false;
};

ProbeRun ProbeServer(const std::string& alias, const ProfileDirectory& profile, bool json,
                     CommandContext& context) {
  std::ostringstream captured;
  CommandContext probing{context.in,          captured,  context.err, context.getenv, context.cwd,
                         context.at_terminal, context.fs};
  Result<Declaration> declaration = FindDeclaration(profile, alias);
  if (!declaration) return {"", false};
  const int status = RunReachProbe(*declaration, profile, json, probing);
  return {captured.str(), status == kExitOk};
}

void RunProbes(AuditReport& report, bool json, nlohmann::json& shown, CommandContext& context) {
  Result<std::optional<ProfileDirectory>> profile = OpenProfileToRead(context);
  if (!profile || !*profile) return;
  for (size_t i = 0; i < report.servers.size(); ++i) {
    const AuditedServer& server = report.servers[i];
    if (server.transport != "stdio" || !server.not_computed.empty()) continue;
    ProbeRun run = ProbeServer(server.alias, **profile, json, context);
    if (json) {
      shown["servers"][i]["probe"] = nlohmann::json::parse(run.output, nullptr, false);
    } else {
      context.out << run.output << "\n";
    }
    if (!run.agrees) {
      report.findings.push_back({"probe-contradicts",
                                 true,
                                 server.alias +
                                     "'s probes found an attempt that came out otherwise than "
                                     "its reach says (above)",
                                 {server.alias},
                                 ""});
    }
  }
}

// Lists the homes no declaration uses and removes them, after a yes where
// somebody is at a terminal.
void Prune(const AuditReport& report, CommandContext& context) {
  std::vector<const ServerHome*> unused;
  for (const ServerHome& home : report.homes) {
    if (home.aliases.empty()) unused.push_back(&home);
  }
  if (unused.empty()) {
    context.out << "no home to prune: every one under mcp-home is a declaration's\n";
    return;
  }
  context.out << "homes no declaration uses:\n";
  for (const ServerHome* home : unused) {
    context.out << "  " << DisplayWord(home->path) << "  " << DisplaySize(home->bytes_on_disk)
                << "\n";
  }
  if (context.at_terminal) {
    DiscardTypedAhead(context);
    context.out << "Remove " << (unused.size() == 1 ? "it" : "them") << "? [y/N] " << std::flush;
    std::string answer;
    if (!std::getline(context.in, answer) || !IsYes(answer)) {
      context.out << "nothing was removed\n";
      return;
    }
  }
  for (const ServerHome* home : unused) {
    if (RemoveRunDirectory(home->path)) {
      context.out << "removed " << DisplayWord(home->path) << "\n";
    } else {
      context.err << "bravebot-mcp audit: " << DisplayWord(home->path)
                  << " could not be removed whole: what is left of it is still there\n";
    }
  }
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
  nlohmann::json shown = options.json ? AuditJson(*report) : nlohmann::json();
  if (!options.json) context.out << DisplayAudit(*report);
  if (options.flags.contains("--probe")) {
    if (!options.json) context.out << "\n";
    RunProbes(*report, options.json, shown, context);
    if (options.json) {
      shown["findings"] = AuditJson(*report)["findings"];
      shown["act"] = report->AnyToActOn();
    }
  }
  if (options.json) context.out << JsonText(shown) << "\n";
  if (prune) {
    context.out << "\n";
    Prune(*report, context);
  }
  return report->AnyToActOn() ? kExitFailed : kExitOk;
}

}  // namespace

const CommandSpec kAuditCommand = {"audit", "audit every declaration, and what holds across them",
                                   "", AuditOptions, RunAudit};

}  // namespace bravebot
