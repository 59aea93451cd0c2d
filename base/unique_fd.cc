#include "base/unique_fd.h"

#include <unistd.h>

#include <cerrno>

namespace bravebot {

void UniqueFd::reset(int fd) {
  if (fd_ >= 0) {
    int saved_errno = errno;
    // Never retried on EINTR: on Linux the descriptor is gone either way, and a
    // retry could close one another thread just opened.
    ::close(fd_);
    errno = saved_errno;
  }
  fd_ = fd;
}

}  // namespace bravebot
