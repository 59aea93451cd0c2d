// bravebot-mcp list: every declaration, a row each, and every entry that
// cannot be used with what is wrong with it (which makes list fail, so that a
// script notices).
#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/command.h"
#include "cli/declaration_view.h"
#include "cli/profile_access.h"
#include "cli/simple_options.h"
#include "confine/digest.h"
#include "confine/paths.h"
#include "supervisor/approval_store.h"
#include "supervisor/declaration_store.h"

namespace bravebot {
namespace {

std::string PaddedTo(const std::string& text, size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

std::string_view ApprovalState(const ApprovalFile& approvals, const Declaration& declaration) {
  return approvals.Approves(ComputeDigest(declaration).hex) ? "approved" : "unapproved";
}

void PrintRows(const DeclarationFile& file, const ApprovalFile& approvals, std::ostream& out) {
  size_t alias_width = 0;
  for (const Declaration& declaration : file.declarations) {
    alias_width = std::max(alias_width, declaration.alias.size());
  }
  for (const UnusableEntry& entry : file.unusable) {
    alias_width = std::max(alias_width, DisplayWord(entry.alias).size());
  }
  for (const Declaration& declaration : file.declarations) {
    out << "  " << PaddedTo(declaration.alias, alias_width + 2)
        << PaddedTo(std::string(TransportName(declaration.transport)), 7)
        << PaddedTo(std::string(ApprovalState(approvals, declaration)), 12)
        << ComputeDigest(declaration).Short() << "\n";
  }
  for (const UnusableEntry& entry : file.unusable) {
    out << "  " << PaddedTo(DisplayWord(entry.alias), alias_width + 2)
        << "cannot be used: " << entry.problem << "\n";
  }
}

nlohmann::json ListJson(const DeclarationFile& file, const ApprovalFile& approvals,
                        const std::string& path) {
  nlohmann::json servers = nlohmann::json::array();
  for (const Declaration& declaration : file.declarations) {
    nlohmann::json summary = DeclarationSummaryJson(declaration);
    summary["approved"] = ApprovalState(approvals, declaration) == "approved";
    servers.push_back(summary);
  }
  nlohmann::json unusable = nlohmann::json::array();
  for (const UnusableEntry& entry : file.unusable) {
    unusable.push_back({{"alias", entry.alias}, {"problem", entry.problem}});
  }
  return {{"file", path}, {"servers", servers}, {"unusable", unusable}};
}

}  // namespace

int RunList(const std::vector<std::string>& words, CommandContext& context) {
  const SimpleCommandSpec spec{
      "list",
      "Lists every declared MCP server: its transport, approval and short digest.",
      /*takes_alias=*/false,
      /*takes_json=*/true,
      {}};
  Result<SimpleOptions> options = ParseSimpleOptions(spec, words);
  if (!options) return Report(context, "list", options.error());
  if (options->help) {
    context.out << options->help_text;
    return kExitOk;
  }

  Result<std::optional<ProfileDirectory>> profile = OpenProfileToRead(context);
  if (!profile) return Report(context, "list", profile.error());
  DeclarationFile file;
  ApprovalFile approvals;
  std::string path;
  if (*profile) {
    DeclarationStore store(**profile);
    path = store.path();
    Result<DeclarationFile> read = store.Read();
    if (!read) return Report(context, "list", read.error());
    file = std::move(*read);
    Result<ApprovalFile> approved = ApprovalStore(**profile).Read();
    if (!approved) return Report(context, "list", approved.error());
    approvals = std::move(*approved);
  } else if (std::optional<std::string> location = context.ProfileLocation()) {
    path = JoinPath(*location, kDeclarationFileName);
  }

  if (options->json) {
    context.out << JsonText(ListJson(file, approvals, path)) << "\n";
  } else if (path.empty()) {
    context.out << "nothing is declared: " << NoProfileDirectoryMessage() << "\n";
  } else if (file.declarations.empty() && file.unusable.empty()) {
    context.out << "nothing is declared in " << path
                << ": bravebot-mcp add ALIAS -- PROGRAM declares a server\n";
  } else {
    context.out << "declared in " << path << "\n";
    PrintRows(file, approvals, context.out);
  }
  if (!file.unusable.empty()) {
    return Report(
        context, "list",
        Error(ErrorCode::kCorrupt, std::to_string(file.unusable.size()) + " entr" +
                                       (file.unusable.size() == 1 ? "y" : "ies") + " of " + path +
                                       " cannot be used: mend each by hand, or remove it with "
                                       "bravebot-mcp remove ALIAS (one whose alias breaks the "
                                       "alias rule is taken out by hand)"));
  }
  return kExitOk;
}

}  // namespace bravebot
