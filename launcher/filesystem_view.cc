#include "launcher/filesystem_view.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
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
  // gid_map may be written only once setgroups is denied.
  if (int error = WriteWhole("/proc/self/setgroups", "deny"); error != 0) return error;
  if (int error = WriteWhole("/proc/self/uid_map", step.uid_map); error != 0) return error;
  if (int error = WriteWhole("/proc/self/gid_map", step.gid_map); error != 0) return error;
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
