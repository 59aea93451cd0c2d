// How large each file bravebot-mcp reads may be: one bound a file, listed in
// docs/files.md. A file over its bound is refused unread, in words naming it
// and its size, and whoever reads it goes on as for a file that cannot be
// read. The bounds are far above what the file holds in use, and far below
// what would strain the memory of a session: a checkout's settings file, a
// file a server may write, is the smallest.
//
//   Result<std::string> text = ReadFileAt(dir, name, shown, kSettingsFileBound);
#ifndef BRAVEBOT_SUPERVISOR_STORE_FILE_BOUNDS_H_
#define BRAVEBOT_SUPERVISOR_STORE_FILE_BOUNDS_H_

#include "base/files.h"

namespace bravebot {

inline constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

// The three settings files: a list of aliases and a few rules, a few KiB.
// 4 MiB holds some 400,000 requested names.
inline constexpr FileBound kSettingsFileBound{4 * kMiB, "a settings file"};

// The profile directory's own files, written by bravebot-mcp alone: mcp.json
// holds a few KiB a declaration, and at most 4096 of them (an object of more
// members is refused, base/bounded_json.h); mcp-approved a line of about 700
// bytes an approval; mcp-projects and mcp-tools a line a project or tool
// answered, which years of use keep in the MiB.
inline constexpr FileBound kDeclarationFileBound{16 * kMiB, "mcp.json"};
inline constexpr FileBound kApprovalFileBound{16 * kMiB, "mcp-approved"};
inline constexpr FileBound kProjectsFileBound{16 * kMiB, "mcp-projects"};
inline constexpr FileBound kToolsFileBound{16 * kMiB, "mcp-tools"};
// mcp-tokens: an entry of a few KiB (a token may be a long JWT) a signed-in
// service, of which a person has a handful.
inline constexpr FileBound kTokenFileBound{16 * kMiB, "mcp-tokens"};

// The administrator's file, a few lines of mcp.allow and mcp.deny.
inline constexpr FileBound kAdministratorFileBound{1 * kMiB, "an administrator's file"};

// A file given to import: another program's settings, which may hold far
// more than its servers (a project history, say).
inline constexpr FileBound kImportFileBound{16 * kMiB, "a file to import"};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_STORE_FILE_BOUNDS_H_
