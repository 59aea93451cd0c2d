// UniqueFd owns one file descriptor and closes it once. Move-only, no
// implicit conversion to int; pass a descriptor you do not own as a plain
// `int` named for what it is (dir_fd).
//
//   UniqueFd fd(open(path, O_RDONLY | O_CLOEXEC));
//   if (!fd.valid()) return Error::FromErrno("open " + path);
#ifndef BRAVEBOT_BASE_UNIQUE_FD_H_
#define BRAVEBOT_BASE_UNIQUE_FD_H_

namespace bravebot {

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  ~UniqueFd() { reset(); }

  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) reset(other.release());
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }

  // Gives up ownership without closing.
  [[nodiscard]] int release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }

  // Closes the descriptor held (keeping errno as it was: a failed close says
  // nothing the caller can act on) and takes `fd` instead.
  void reset(int fd = -1);

 private:
  int fd_ = -1;
};

}  // namespace bravebot

#endif  // BRAVEBOT_BASE_UNIQUE_FD_H_
