// A read-only view of the filesystem for the server: in its own mount
// namespace, every mount is made read-only except its writable directories,
// bound back read-write. Landlock decides what a server may read and write,
// but has no right for a file's mode, owner, times or extended attributes; on
// a read-only mount none of them can change, so a server cannot chmod a file
// it does not reach (making a program setuid, or mcp.json readable to
// everyone). It needs the user namespace of launcher/isolation.h.
#ifndef BRAVEBOT_LAUNCHER_FILESYSTEM_VIEW_H_
#define BRAVEBOT_LAUNCHER_FILESYSTEM_VIEW_H_

#include <vector>

#include "launcher/verified_path.h"

namespace bravebot {

struct FilesystemViewPlan {
  bool enabled = false;
  std::vector<VerifiedPath> writable;  // outermost first
};

// The plan for `writable` directories (identities recorded by the parent's
// opens); disabled when `namespaces_available` is false.
FilesystemViewPlan PlanFilesystemView(std::vector<VerifiedPath> writable,
                                      bool namespaces_available);

// In the child, after fork: what EnterFilesystemView needs, as plain data.
struct FilesystemViewStep {
  bool enabled;
  const VerifiedPathStep* writable;
  int writable_count;
  int* scratch;  // room for 2 * writable_count descriptors, made before fork
};

// Makes the view, inside the mount namespace the child already has. Each
// writable directory is found again without following links and checked to be
// the one the parent saw. Returns 0, or the errno of the call that failed.
// Async-signal-safe.
int EnterFilesystemView(const FilesystemViewStep& step);

}  // namespace bravebot

#endif  // BRAVEBOT_LAUNCHER_FILESYSTEM_VIEW_H_
