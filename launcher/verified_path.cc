#include "launcher/verified_path.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

namespace bravebot {
namespace {

int OpenAt2WithoutLinks(const char* path, unsigned long flags) {
  struct open_how how = {};
  how.flags = flags | O_PATH | O_CLOEXEC;
  how.resolve = RESOLVE_NO_SYMLINKS;
  return static_cast<int>(::syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how)));
}

}  // namespace

Result<UniqueFd> OpenWithoutLinks(const std::string& path, VerifiedPath* identity,
                                  struct stat* status) {
  UniqueFd fd(OpenAt2WithoutLinks(path.c_str(), 0));
  if (!fd.valid()) {
    if (errno == ELOOP) {
      return Error(ErrorCode::kRefused,
                   path +
                       " became a link after its reach was computed, and nothing is granted "
                       "through one",
                   ELOOP);
    }
    return Error::FromErrno("open " + path);
  }
  if (identity == nullptr && status == nullptr) return fd;
  struct stat own_status;
  if (status == nullptr) status = &own_status;
  if (::fstat(fd.get(), status) != 0) return Error::FromErrno("stat " + path);
  if (identity != nullptr) *identity = {path, status->st_dev, status->st_ino};
  return fd;
}

int OpenVerifiedDirectory(const VerifiedPathStep& step) { return OpenVerified(step, O_DIRECTORY); }

int OpenVerified(const VerifiedPathStep& step, int flags) {
  int fd = OpenAt2WithoutLinks(step.path, static_cast<unsigned long>(flags));
  if (fd < 0) return -errno;
  struct stat status;
  if (::fstat(fd, &status) != 0) {
    int error = errno;
    ::close(fd);
    return -error;
  }
  if (status.st_dev != step.device || status.st_ino != step.inode) {
    ::close(fd);
    return -ESTALE;
  }
  return fd;
}

}  // namespace bravebot
