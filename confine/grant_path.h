// Where a path the reach grants really leads. Every grant is resolved link by
// link, the way the kernel walks it, before any rule is applied to it, and the
// result (with no link left in it) is what the launcher opens for its
// Landlock rule, without following links (openat2 with RESOLVE_NO_SYMLINKS),
// so nothing can change between the check and the open.
//
// A link that lies in a directory some server may write (a server's --dir,
// the homes under mcp-home, the system's temporary directory) was perhaps
// planted there by a server, to widen its reach at its next start. It is
// followed only where it leads to somewhere inside that same directory (a
// node_modules/.bin link to its package); one that leads out of it is refused.
//
//   Result<std::string> where = ResolveGrantPath("/home/u/.local/bin", writable, fs);
#ifndef BRAVEBOT_CONFINE_GRANT_PATH_H_
#define BRAVEBOT_CONFINE_GRANT_PATH_H_

#include <string>
#include <vector>

#include "base/result.h"
#include "confine/filesystem.h"
#include "confine/whole_directory.h"

namespace bravebot {

// Directories some server may write, absolute and resolved.
using ServerWritableDirectories = std::vector<std::string>;

// The directory of `writable` that holds `path` (beneath it, not it), or "".
std::string ServerWritableDirectoryHolding(const std::string& path,
                                           const ServerWritableDirectories& writable);

// `path` (absolute) with every link resolved. Errors, worded to follow the
// path ("... : it leads through the link ..."): kNotFound when some part is
// missing or not a directory; kRefused for a loop of links, or for a link in a
// directory of `writable` that leads out of it, naming both.
Result<std::string> ResolveGrantPath(const std::string& path,
                                     const ServerWritableDirectories& writable,
                                     const FileSystemView& fs);

// What every grant of a directory or a file is checked against: the machine,
// the one rule for whole directories, and where servers may write.
struct GrantRules {
  const FileSystemView* fs = nullptr;
  WholeDirectoryLimits limits;
  ServerWritableDirectories server_writable;

  Result<std::string> Resolve(const std::string& path) const {
    return ResolveGrantPath(path, server_writable, *fs);
  }
};

}  // namespace bravebot

#endif  // BRAVEBOT_CONFINE_GRANT_PATH_H_
