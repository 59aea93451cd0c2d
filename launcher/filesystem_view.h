// A read-only view of the filesystem for the server: in a user and mount
// namespace of its own, every mount is made read-only except its writable
// directories, bound back read-write. Landlock decides what a server may
// read and write, but has no right for a file's mode, owner, times or extended
// attributes; on a read-only mount none of them can change, so a server cannot
// chmod a file it does not reach (making a program setuid, or mcp.json
// readable to everyone). Its user stays the same user: the namespace maps
// only its own uid and gid, to themselves.
#ifndef BRAVEBOT_LAUNCHER_FILESYSTEM_VIEW_H_
#define BRAVEBOT_LAUNCHER_FILESYSTEM_VIEW_H_

#include <string>
#include <vector>

namespace bravebot {

struct FilesystemViewPlan {
  bool enabled = false;
  std::string uid_map;  // "1000 1000 1"
  std::string gid_map;
  std::vector<std::string> writable;  // outermost first
};

// Whether this machine lets a process make a user namespace (some turn it
// off); tried once, in a child, and remembered.
bool UserNamespacesAvailable();

// The plan for `writable` directories, for the calling user; disabled when
// user namespaces are not available.
FilesystemViewPlan PlanFilesystemView(std::vector<std::string> writable);

// In the child, after fork: what EnterFilesystemView needs, as plain pointers.
struct FilesystemViewStep {
  bool enabled;
  const char* uid_map;
  const char* gid_map;
  const char* const* writable;
  int writable_count;
};

// Enters the view. Returns 0, or the errno of the call that failed.
// Async-signal-safe.
int EnterFilesystemView(const FilesystemViewStep& step);

}  // namespace bravebot

#endif  // BRAVEBOT_LAUNCHER_FILESYSTEM_VIEW_H_
