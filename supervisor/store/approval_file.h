// mcp-approved: what was approved, one line each. Pure: text in, values out.
//
//   # bravebot-mcp approvals, format 1
//   server <digest> <alias> transport=<d> program=<d> argv=<d> url=<d> variables=<d> directory=<d>
//   previous <digest> <alias> transport=<d> ...
//   tools <server digest> <tool list digest>
//
// A server line approves a declaration's digest; the alias beside it is the
// one it was approved as, and each field's own digest is kept so a changed
// declaration can say what changed. A previous line is an approval whose
// declaration was replaced under the same alias: it approves nothing, and is
// kept only to say what changed since. A tools line approves one tool list of
// that server (written by the supervisor).
#ifndef BRAVEBOT_SUPERVISOR_STORE_APPROVAL_FILE_H_
#define BRAVEBOT_SUPERVISOR_STORE_APPROVAL_FILE_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "confine/declaration.h"
#include "confine/digest.h"

namespace bravebot {

inline constexpr char kApprovalFileHeader[] = "# bravebot-mcp approvals, format 1";

struct ServerApproval {
  std::string digest;  // 64 hex digits
  std::string alias;
  std::map<std::string, std::string> fields;  // field name to its digest
};

struct ToolsApproval {
  std::string server_digest;
  std::string tools_digest;
};

struct ApprovalFile {
  std::vector<ServerApproval> servers;
  std::vector<ServerApproval> previous;  // approve nothing: one per alias at most
  std::vector<ToolsApproval> tools;

  bool Approves(std::string_view digest) const;
  // The approval last given under `alias`, standing or previous, for saying
  // what changed since.
  const ServerApproval* LastUnderAlias(std::string_view alias) const;

  // Approves `declaration` (once: approving it again changes nothing).
  void Approve(const Declaration& declaration);
  // The tool list approved for the server of `server_digest`; "" for none.
  std::string ApprovedToolList(std::string_view server_digest) const;
  // Approves the list of `tools_digest` for that server, in place of the
  // one approved before (a server has one approved list at most).
  void ApproveToolList(const std::string& server_digest, const std::string& tools_digest);

  // Withdraws every server approval (and its tools lines) that none of
  // `declarations` resolves to any more, keeping it as the previous approval
  // of its alias while that alias is still declared; keeps the rest. Returns
  // how many were withdrawn.
  size_t KeepOnlyThoseOf(const std::vector<Declaration>& declarations);
};

// Reads the text of mcp-approved. A line that is not one of the above makes
// the whole file kCorrupt, naming `shown_path` and the line number, never
// quoting it.
Result<ApprovalFile> ParseApprovalFile(std::string_view text, const std::string& shown_path);
std::string SerializeApprovalFile(const ApprovalFile& file);

// The fields of a declaration whose digests differ from an approval's, as the
// question says them ("changed: argv").
std::vector<std::string> ChangedSince(const ServerApproval& approval, const Declaration& now);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_STORE_APPROVAL_FILE_H_
