#include "cli/audit_view.h"

#include "base/shown_text.h"
#include "cli/declaration_view.h"

namespace bravebot {
namespace {

std::string PathLines(const std::vector<ReachPath>& paths) {
  std::string lines;
  for (const ReachPath& path : paths) {
    lines += "      " + DisplayWord(path.path) + "  " + EscapeControlCharacters(path.reason) + "\n";
  }
  return lines;
}

std::string ServerLines(const AuditedServer& server) {
  std::string text =
      "  " + server.alias + "   " + server.transport + "   " + DisplayWord(server.runs) +
      "\n    digest " + server.digest.substr(0, 12) + ", " +
      (server.approved ? "approved" : "not approved") + ", " +
      (server.tool_list_approved ? "its tool list approved" : "no tool list approved yet") + "\n";
  if (!server.not_computed.empty()) {
    text += "    its reach could not be computed: " + EscapeControlCharacters(server.not_computed) +
            "\n";
  }
  if (!server.writes.empty()) text += "    writes, beyond the system:\n" + PathLines(server.writes);
  if (!server.reads.empty()) text += "    reads, beyond the system:\n" + PathLines(server.reads);
  for (const std::string& file : server.files_named) {
    text += "    a stored value names the file " + DisplayWord(file) + "\n";
  }
  if (server.requested_in.empty()) {
    text += "    asked for in none of the checkouts audited\n";
  }
  for (const AuditedServer::Request& request : server.requested_in) {
    text += "    asked for in " + DisplayWord(request.checkout) + " by ";
    for (size_t i = 0; i < request.files.size(); ++i) {
      text += (i == 0 ? "" : ", ") + DisplayWord(request.files[i]);
    }
    text += "\n";
  }
  return text + "\n";
}

// A text, or null where there is none.
nlohmann::json OrNull(const std::string& text) {
  return text.empty() ? nlohmann::json() : nlohmann::json(text);
}

nlohmann::json PathsJson(const std::vector<ReachPath>& paths) {
  nlohmann::json list = nlohmann::json::array();
  for (const ReachPath& path : paths) {
    list.push_back({{"path", path.path},
                    {"access", PathAccessName(path.access)},
                    {"file_only", path.file_only},
                    {"reason", path.reason}});
  }
  return list;
}

}  // namespace

std::string DisplayAudit(const AuditReport& report) {
  if (report.profile.empty()) return "nothing is declared: there is no profile directory yet\n";
  std::string text = "the profile " + DisplayWord(report.profile) + ", for sessions started in ";
  for (size_t i = 0; i < report.checkouts.size(); ++i) {
    text += (i == 0 ? "" : ", ") + DisplayWord(report.checkouts[i]);
  }
  text += "\n\n";
  for (const AuditedServer& server : report.servers) text += ServerLines(server);
  if (!report.homes.empty()) {
    text += "  homes under mcp-home:\n";
    for (const ServerHome& home : report.homes) {
      text += "    " + DisplayWord(home.digest.substr(0, 12)) + "  " + DisplayHomeSize(home) +
              "  " + (home.aliases.empty() ? "used by no declaration" : "the home of ");
      for (size_t i = 0; i < home.aliases.size(); ++i) {
        text += (i == 0 ? "" : ", ") + home.aliases[i];
      }
      text += "\n";
    }
    text += "\n";
  }
  if (!report.enforcement.empty()) text += "  " + report.enforcement + "\n\n";
  size_t to_act_on = 0;
  for (const AuditFinding& finding : report.findings) {
    if (finding.act) ++to_act_on;
  }
  if (report.findings.empty()) return text + "nothing found\n";
  text += to_act_on == 0 ? "found, nothing to act on:\n"
                         : "found, " + std::to_string(to_act_on) + " to act on (!):\n";
  for (const AuditFinding& finding : report.findings) {
    text += std::string(finding.act ? "  ! " : "  - ") + finding.text + "\n";
  }
  return text;
}

nlohmann::json AuditJson(const AuditReport& report) {
  nlohmann::json servers = nlohmann::json::array();
  for (const AuditedServer& server : report.servers) {
    nlohmann::json requested = nlohmann::json::array();
    for (const AuditedServer::Request& request : server.requested_in) {
      requested.push_back({{"checkout", request.checkout}, {"files", request.files}});
    }
    servers.push_back({{"alias", server.alias},
                       {"transport", server.transport},
                       {"digest", server.digest},
                       {"approved", server.approved},
                       {"tool_list_approved", server.tool_list_approved},
                       {"runs", server.runs},
                       {"writes", PathsJson(server.writes)},
                       {"reads", PathsJson(server.reads)},
                       {"files_named", server.files_named},
                       {"requested_in", requested},
                       {"not_computed", OrNull(server.not_computed)}});
  }
  nlohmann::json homes = nlohmann::json::array();
  for (const ServerHome& home : report.homes) {
    homes.push_back({{"digest", home.digest},
                     {"path", home.path},
                     {"bytes_on_disk", home.bytes_on_disk},
                     {"counted_whole", home.counted_whole},
                     {"aliases", home.aliases}});
  }
  nlohmann::json findings = nlohmann::json::array();
  for (const AuditFinding& finding : report.findings) {
    findings.push_back({{"kind", finding.kind},
                        {"act", finding.act},
                        {"text", finding.text},
                        {"aliases", finding.aliases},
                        {"path", OrNull(finding.path)}});
  }
  return {{"format", 1},
          {"profile", OrNull(report.profile)},
          {"checkouts", report.checkouts},
          {"servers", servers},
          {"homes", homes},
          {"enforcement", report.enforcement},
          {"findings", findings},
          {"act", report.AnyToActOn()}};
}

}  // namespace bravebot
