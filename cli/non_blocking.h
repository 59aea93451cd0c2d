// O_NONBLOCK on one of mcp-run's own descriptors while a bridge runs, and
// its flags as they were afterwards: the open file may be shared with the
// shell that started mcp-run (a terminal), which expects it blocking.
#ifndef BRAVEBOT_CLI_NON_BLOCKING_H_
#define BRAVEBOT_CLI_NON_BLOCKING_H_

#include <fcntl.h>

namespace bravebot {

class NonBlockingWhileAlive {
 public:
  explicit NonBlockingWhileAlive(int fd) : fd_(fd), flags_(::fcntl(fd, F_GETFL)) {
    if (flags_ >= 0) ::fcntl(fd_, F_SETFL, flags_ | O_NONBLOCK);
  }
  ~NonBlockingWhileAlive() {
    if (flags_ >= 0) ::fcntl(fd_, F_SETFL, flags_);
  }
  NonBlockingWhileAlive(const NonBlockingWhileAlive&) = delete;
  NonBlockingWhileAlive& operator=(const NonBlockingWhileAlive&) = delete;

 private:
  int fd_;
  int flags_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_NON_BLOCKING_H_
