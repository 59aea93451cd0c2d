#include "launcher/socket_mask.h"

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>

namespace bravebot {
namespace {

// Closes a descriptor of the walk, but never the one it started from.
void CloseStep(int fd, int root) {
  if (fd != root) ::close(fd);
}

// Makes `relative` beneath `root`, a tmpfs of ours nothing else can write
// yet: each directory on the way, and the last a directory or an empty file,
// for a mount to go on. Returns it opened O_PATH, or -errno.
int MakeMountPoint(int root, const char* relative, bool is_file) {
  char name[NAME_MAX + 1];
  int directory = root;
  const char* rest = relative;
  for (;;) {
    size_t length = 0;
    while (rest[length] != '\0' && rest[length] != '/') ++length;
    if (length == 0 || length > NAME_MAX) {
      CloseStep(directory, root);
      return -EINVAL;
    }
    for (size_t i = 0; i < length; ++i) name[i] = rest[i];
    name[length] = '\0';
    const bool last = rest[length] == '\0';
    int made = 0;
    if (last && is_file) {
      made = ::openat(directory, name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0644);
      if (made >= 0) ::close(made);
    } else {
      made = ::mkdirat(directory, name, 0755);
    }
    if (made < 0 && !(errno == EEXIST && !last)) {
      int error = errno;
      CloseStep(directory, root);
      return -error;
    }
    int next = ::openat(directory, name,
                        O_PATH | O_CLOEXEC | O_NOFOLLOW | (last && is_file ? 0 : O_DIRECTORY));
    int error = errno;
    CloseStep(directory, root);
    if (next < 0) return -error;
    if (last) return next;
    directory = next;
    rest += length + 1;
  }
}

// A new tmpfs, empty, not yet anywhere; its descriptor, or -errno.
int NewEmptyTmpfs() {
  int context = ::fsopen("tmpfs", FSOPEN_CLOEXEC);
  if (context < 0) return -errno;
  int mount = -1;
  if (::fsconfig(context, FSCONFIG_SET_STRING, "mode", "0755", 0) == 0 &&
      ::fsconfig(context, FSCONFIG_CMD_CREATE, nullptr, nullptr, 0) == 0) {
    mount = ::fsmount(context, FSMOUNT_CLOEXEC,
                      MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
  }
  int error = errno;
  ::close(context);
  return mount >= 0 ? mount : -error;
}

int MoveMount(int from, int onto) {
  return ::move_mount(from, "", onto, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) == 0
             ? 0
             : errno;
}

// Copies of what goes back are taken first: once the tmpfs is on, their
// paths lead into it.
int CopyWhatGoesBack(const PlaceToHideStep& place, int* copies) {
  for (int i = 0; i < place.bound_back_count; ++i) {
    const BindBackStep& back = place.bound_back[i];
    int source = OpenVerified(back.source, back.is_file ? 0 : O_DIRECTORY);
    if (source < 0) return -source;
    copies[i] =
        ::open_tree(source, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE | AT_EMPTY_PATH);
    int error = errno;
    ::close(source);
    if (copies[i] < 0) return error;
  }
  return 0;
}

int Hide(const PlaceToHideStep& place, int* copies) {
  for (int i = 0; i < place.bound_back_count; ++i) copies[i] = -1;
  int error = CopyWhatGoesBack(place, copies);
  int where = error == 0 ? OpenVerifiedDirectory(place.place) : -1;
  if (error == 0 && where < 0) error = -where;
  int tmpfs = error == 0 ? NewEmptyTmpfs() : -1;
  if (error == 0 && tmpfs < 0) error = -tmpfs;
  if (error == 0) error = MoveMount(tmpfs, where);
  // Attached, the tmpfs takes mount points, and the copies go onto them.
  for (int i = 0; i < place.bound_back_count && error == 0; ++i) {
    int point = MakeMountPoint(tmpfs, place.bound_back[i].relative, place.bound_back[i].is_file);
    if (point < 0) {
      error = -point;
      break;
    }
    error = MoveMount(copies[i], point);
    ::close(point);
  }
  if (error == 0) {
    // Only the tmpfs: what was bound back keeps its own attributes.
    struct mount_attr read_only = {};
    read_only.attr_set = MOUNT_ATTR_RDONLY;
    if (::mount_setattr(tmpfs, "", AT_EMPTY_PATH, &read_only, sizeof(read_only)) != 0) {
      error = errno;
    }
  }
  for (int i = 0; i < place.bound_back_count; ++i) {
    if (copies[i] >= 0) ::close(copies[i]);
  }
  if (tmpfs >= 0) ::close(tmpfs);
  if (where >= 0) ::close(where);
  return error;
}

}  // namespace

int HideSocketPlaces(const SocketMaskStep& step) {
  int* copies = step.scratch;
  for (int i = 0; i < step.place_count; ++i) {
    if (int error = Hide(step.places[i], copies); error != 0) return error;
    copies += step.places[i].bound_back_count;
  }
  return 0;
}

}  // namespace bravebot
