#include "launcher/filesystem_view.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace bravebot {
namespace {

constexpr int kMostWritable = 8;

int WriteWhole(const char* path, const char* text) {
  int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  size_t length = std::strlen(text);
  ssize_t written = ::write(fd, text, length);
  int error = written == static_cast<ssize_t>(length) ? 0 : (written < 0 ? errno : EIO);
  ::close(fd);
  return error;
}

// Writes the maps of the user namespace just entered. A non-dumpable process
// (mcp-run and bravebot-mcp make themselves so, and this child is a fork of
// one) finds its /proc/self files owned by root and may not open them: it is
// dumpable for these three writes only, as runc's nsexec is, then as before.
int WriteOwnMaps(const FilesystemViewStep& step) {
  const int dumpable = ::prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
  if (dumpable == 0 && ::prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) != 0) return errno;
  // gid_map may be written only once setgroups is denied.
  int error = WriteWhole("/proc/self/setgroups", "deny");
  if (error == 0) error = WriteWhole("/proc/self/uid_map", step.uid_map);
  if (error == 0) error = WriteWhole("/proc/self/gid_map", step.gid_map);
  if (dumpable == 0 && ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0 && error == 0) error = errno;
  return error;
}

}  // namespace

bool UserNamespacesAvailable() {
  static const bool available = [] {
    pid_t pid = ::fork();
    if (pid < 0) return false;
    if (pid == 0) ::_exit(::unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0 ? 0 : 1);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }();
  return available;
}

FilesystemViewPlan PlanFilesystemView(std::vector<std::string> writable) {
  FilesystemViewPlan plan;
  if (!UserNamespacesAvailable() || writable.size() > kMostWritable) return plan;
  plan.enabled = true;
  const std::string uid = std::to_string(::geteuid());
  const std::string gid = std::to_string(::getegid());
  plan.uid_map = uid + " " + uid + " 1\n";
  plan.gid_map = gid + " " + gid + " 1\n";
  // Outermost first, so an inner directory is bound onto the outer one's copy.
  std::sort(writable.begin(), writable.end(),
            [](const std::string& a, const std::string& b) { return a.size() < b.size(); });
  plan.writable = std::move(writable);
  return plan;
}

int EnterFilesystemView(const FilesystemViewStep& step) {
  if (!step.enabled) return 0;
  if (::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) return errno;
  if (int error = WriteOwnMaps(step); error != 0) return error;
  // Nothing done here may reach the mounts of anything outside.
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return errno;
  int copies[kMostWritable];
  for (int i = 0; i < step.writable_count; ++i) {
    copies[i] =
        ::open_tree(AT_FDCWD, step.writable[i], OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
    if (copies[i] < 0) return errno;
  }
  struct mount_attr read_only = {};
  read_only.attr_set = MOUNT_ATTR_RDONLY;
  if (::mount_setattr(AT_FDCWD, "/", AT_RECURSIVE, &read_only, sizeof(read_only)) != 0) {
    return errno;
  }
  for (int i = 0; i < step.writable_count; ++i) {
    if (::move_mount(copies[i], "", AT_FDCWD, step.writable[i], MOVE_MOUNT_F_EMPTY_PATH) != 0) {
      return errno;
    }
    ::close(copies[i]);
  }
  return 0;
}

}  // namespace bravebot
