#include "launcher/filesystem_view.h"

#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace bravebot {

FilesystemViewPlan PlanFilesystemView(std::vector<VerifiedPath> writable,
                                      bool namespaces_available) {
  FilesystemViewPlan plan;
  if (!namespaces_available) return plan;
  plan.enabled = true;
  // Outermost first, so an inner directory is bound onto the outer one's copy.
  std::stable_sort(
      writable.begin(), writable.end(),
      [](const VerifiedPath& a, const VerifiedPath& b) { return a.path.size() < b.path.size(); });
  plan.writable = std::move(writable);
  return plan;
}

int EnterFilesystemView(const FilesystemViewStep& step) {
  if (!step.enabled) return 0;
  // Each writable directory is cloned before everything turns read-only:
  // scratch[2i] is the place to bind clone scratch[2i + 1] back onto.
  int* places = step.scratch;
  int copies_made = 0;
  int error = 0;
  for (int i = 0; i < step.writable_count && error == 0; ++i) {
    int place = OpenVerifiedDirectory(step.writable[i]);
    if (place < 0) {
      error = -place;
      break;
    }
    int copy =
        ::open_tree(place, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE | AT_EMPTY_PATH);
    if (copy < 0) error = errno;
    places[2 * i] = place;
    places[2 * i + 1] = copy;
    ++copies_made;
  }
  if (error == 0) {
    struct mount_attr read_only = {};
    read_only.attr_set = MOUNT_ATTR_RDONLY;
    if (::mount_setattr(AT_FDCWD, "/", AT_RECURSIVE, &read_only, sizeof(read_only)) != 0) {
      error = errno;
    }
  }
  for (int i = 0; i < copies_made; ++i) {
    if (error == 0 && ::move_mount(places[2 * i + 1], "", places[2 * i], "",
                                   MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) != 0) {
      error = errno;
    }
    ::close(places[2 * i]);
    if (places[2 * i + 1] >= 0) ::close(places[2 * i + 1]);
  }
  return error;
}

}  // namespace bravebot
