#include "supervisor/store/approval_file.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "supervisor/store/line_file.h"

namespace bravebot {
namespace {

bool IsDigest(std::string_view word) {
  return word.size() == 64 && word.find_first_not_of("0123456789abcdef") == std::string::npos;
}

std::vector<std::string> Words(std::string_view line) {
  std::vector<std::string> words;
  std::istringstream stream{std::string(line)};
  for (std::string word; stream >> word;) words.push_back(word);
  return words;
}

Error Corrupt(const std::string& shown_path, size_t line_number, const std::string& why) {
  return UnreadableLine(shown_path, line_number, why, "approve again");
}

}  // namespace

bool ApprovalFile::Approves(std::string_view digest) const {
  return std::any_of(servers.begin(), servers.end(),
                     [&](const ServerApproval& approval) { return approval.digest == digest; });
}

const ServerApproval* ApprovalFile::LastUnderAlias(std::string_view alias) const {
  for (auto it = servers.rbegin(); it != servers.rend(); ++it) {
    if (it->alias == alias) return &*it;
  }
  for (const ServerApproval& approval : previous) {
    if (approval.alias == alias) return &approval;
  }
  return nullptr;
}

void ApprovalFile::Approve(const Declaration& declaration) {
  DeclarationDigest digest = ComputeDigest(declaration);
  // Approved again under another alias, it moves to the end as that one.
  std::erase_if(servers, [&](const ServerApproval& approval) {
    return approval.digest == digest.hex && approval.alias != declaration.alias;
  });
  std::erase_if(previous, [&](const ServerApproval& approval) {
    return approval.alias == declaration.alias;
  });
  if (Approves(digest.hex)) return;
  servers.push_back({digest.hex, declaration.alias, digest.fields});
}

size_t ApprovalFile::KeepOnlyThoseOf(const std::vector<Declaration>& declarations) {
  std::set<std::string> resolved;
  std::set<std::string> aliases;
  for (const Declaration& declaration : declarations) {
    resolved.insert(ComputeDigest(declaration).hex);
    aliases.insert(declaration.alias);
  }
  const size_t before = servers.size();
  for (const ServerApproval& approval : servers) {
    if (resolved.contains(approval.digest) || !aliases.contains(approval.alias)) continue;
    std::erase_if(previous, [&](const ServerApproval& old) { return old.alias == approval.alias; });
    previous.push_back(approval);
  }
  std::erase_if(
      servers, [&](const ServerApproval& approval) { return !resolved.contains(approval.digest); });
  std::erase_if(previous, [&](const ServerApproval& old) { return !aliases.contains(old.alias); });
  std::erase_if(tools,
                [&](const ToolsApproval& tool) { return !resolved.contains(tool.server_digest); });
  return before - servers.size();
}

std::string ApprovalFile::ApprovedToolList(std::string_view server_digest) const {
  for (const ToolsApproval& list : tools) {
    if (list.server_digest == server_digest) return list.tools_digest;
  }
  return "";
}

void ApprovalFile::ApproveToolList(const std::string& server_digest,
                                   const std::string& tools_digest) {
  std::erase_if(tools,
                [&](const ToolsApproval& list) { return list.server_digest == server_digest; });
  tools.push_back({server_digest, tools_digest});
}

Result<ApprovalFile> ParseApprovalFile(std::string_view text, const std::string& shown_path) {
  ApprovalFile file;
  BRAVEBOT_RETURN_IF_ERROR(ForEachLine(
      text, kApprovalFileHeader, shown_path, "approve again",
      [&](std::string_view line, size_t line_number) -> Status {
        std::vector<std::string> words = Words(line);
        if (words.empty()) return {};
        if (words[0] == "tools" && words.size() == 3 && IsDigest(words[1]) && IsDigest(words[2])) {
          file.tools.push_back({words[1], words[2]});
          return {};
        }
        if ((words[0] != "server" && words[0] != "previous") || words.size() < 3 ||
            !IsDigest(words[1]) || !IsValidAlias(words[2])) {
          return Corrupt(shown_path, line_number,
                         "it is no server, previous or tools line of this format");
        }
        ServerApproval approval{words[1], words[2], {}};
        for (size_t i = 3; i < words.size(); ++i) {
          size_t equals = words[i].find('=');
          if (equals == std::string::npos || !IsDigest(words[i].substr(equals + 1))) {
            return Corrupt(shown_path, line_number, "a field digest is not NAME=<64 hex digits>");
          }
          approval.fields[words[i].substr(0, equals)] = words[i].substr(equals + 1);
        }
        (words[0] == "server" ? file.servers : file.previous).push_back(std::move(approval));
        return {};
      }));
  return file;
}

std::string SerializeApprovalFile(const ApprovalFile& file) {
  std::string text = std::string(kApprovalFileHeader) + "\n";
  auto write = [&](const char* kind, const ServerApproval& approval) {
    text += std::string(kind) + " " + approval.digest + " " + approval.alias;
    for (const auto& [field, digest] : approval.fields) text += " " + field + "=" + digest;
    text += "\n";
  };
  for (const ServerApproval& approval : file.servers) write("server", approval);
  for (const ServerApproval& approval : file.previous) write("previous", approval);
  for (const ToolsApproval& tool : file.tools) {
    text += "tools " + tool.server_digest + " " + tool.tools_digest + "\n";
  }
  return text;
}

std::vector<std::string> ChangedSince(const ServerApproval& approval, const Declaration& now) {
  return ChangedFields(approval.fields, ComputeDigest(now).fields);
}

}  // namespace bravebot
