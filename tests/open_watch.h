// Whether anything opens a file from now on, seen through inotify's IN_OPEN:
// for the tests that a fifo, a device or a directory where a file is expected
// is refused after a look at it, without ever being opened (opening a fifo
// may wait for a writer, and opening a device may do what it does on open).
//
//   OpenWatch watch(fifo_path);
//   ... the reader under test ...
//   EXPECT_FALSE(watch.Opened());
#ifndef BRAVEBOT_TESTS_OPEN_WATCH_H_
#define BRAVEBOT_TESTS_OPEN_WATCH_H_

#include <sys/inotify.h>
#include <unistd.h>

#include <array>
#include <string>

namespace bravebot::testing {

class OpenWatch {
 public:
  // Watching `path` itself, without opening it or following a link there.
  explicit OpenWatch(const std::string& path)
      : fd_(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC)),
        watching_(fd_ >= 0 &&
                  ::inotify_add_watch(fd_, path.c_str(), IN_OPEN | IN_DONT_FOLLOW) >= 0) {}
  ~OpenWatch() {
    if (fd_ >= 0) ::close(fd_);
  }
  OpenWatch(const OpenWatch&) = delete;
  OpenWatch& operator=(const OpenWatch&) = delete;

  // False where the watch could not be set: the test then says so.
  bool watching() const { return watching_; }

  // Whether it was opened since the watch was set, or the last call said so.
  bool Opened() const {
    std::array<char, 4096> events;
    return ::read(fd_, events.data(), events.size()) > 0;
  }

 private:
  int fd_;
  bool watching_;
};

}  // namespace bravebot::testing

#endif  // BRAVEBOT_TESTS_OPEN_WATCH_H_
