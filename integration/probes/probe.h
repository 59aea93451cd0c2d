// What the hostile probes share. Each probe tries one thing a confined server
// must not do (or, for a few, one thing it must be able to do) and says on
// one line of stdout what happened. Exit 0: the attempt worked (for a refused
// attempt, the promise is broken); 1: it was refused; 2: the probe could not
// set up its attempt. Plain libc, so the only calls made are the probe's own.
#ifndef BRAVEBOT_INTEGRATION_PROBES_PROBE_H_
#define BRAVEBOT_INTEGRATION_PROBES_PROBE_H_

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace probe {

inline constexpr int kWorked = 0;
inline constexpr int kRefused = 1;
inline constexpr int kSetupFailed = 2;

// printf into one of a few buffers used in turn: the words of a report, which
// may quote the words made by the call before.
// Marked as printf's kind, so its callers' formats are checked and its own
// passing on of `format` is not taken for a format made at run time; only a
// C variadic function can be so marked, not a parameter pack.
// NOLINTNEXTLINE(cert-dcl50-cpp)
__attribute__((format(printf, 1, 2))) inline const char* Words(const char* format, ...) {
  static char buffers[4][4096];
  static int next = 0;
  char* buffer = buffers[next++ % 4];
  va_list arguments;
  va_start(arguments, format);
  std::vsnprintf(buffer, sizeof(buffers[0]), format, arguments);
  va_end(arguments);
  return buffer;
}

inline int Allowed(const char* what) {
  std::printf("allowed: %s\n", what);
  return kWorked;
}

// A refusal, with the errno's words: the test asserts which layer gave it
// (Landlock's EACCES, the read-only view's EROFS, seccomp's EPERM, the PID
// namespace's ESRCH), so a missing target is no refusal it accepts.
inline int Denied(const char* what, int error) {
  std::printf("denied: %s: %s\n", what, std::strerror(error));
  return kRefused;
}

// A call's result: negative (with errno set) is a refusal.
inline int Report(long result, const char* what) {
  return result < 0 ? Denied(what, errno) : Allowed(what);
}

[[noreturn]] inline void SetupFailed(const char* what) {
  std::printf("setup: %s: %s\n", what, std::strerror(errno));
  std::exit(kSetupFailed);
}

// A value the test put in the environment (named with -e, so it is not a file
// the server was given); its absence is a setup problem.
inline const char* Need(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') {
    errno = EINVAL;
    SetupFailed(Words("the variable %s is not set", name));
  }
  return value;
}

// The process a probe aimed at another process tries: TARGET_PID when the
// test names one (a process outside, such as the test itself), else its
// parent (the init of its PID namespace, or, without one, its starter).
inline pid_t TargetProcess() {
  const char* target = std::getenv("TARGET_PID");
  return target != nullptr && *target != '\0' ? static_cast<pid_t>(std::strtol(target, nullptr, 10))
                                              : ::getppid();
}

// The value of `name` in /proc/self/status, read as hexadecimal for the Cap*
// fields and decimal for the others; a missing field is a setup problem.
inline unsigned long long StatusField(const char* name) {
  std::FILE* status = std::fopen("/proc/self/status", "re");
  if (status == nullptr) SetupFailed("open /proc/self/status");
  char line[256];
  const size_t length = std::strlen(name);
  while (std::fgets(line, sizeof(line), status) != nullptr) {
    if (std::strncmp(line, name, length) != 0 || line[length] != ':') continue;
    std::fclose(status);
    return std::strtoull(line + length + 1, nullptr, std::strncmp(name, "Cap", 3) == 0 ? 16 : 10);
  }
  std::fclose(status);
  errno = ENOENT;
  SetupFailed(Words("no %s in /proc/self/status", name));
}

// Opens `path` with `flags` and reads or writes one byte; -1 with errno on
// the first failure.
inline long Touch(const char* path, int flags) {
  int fd = ::open(path, flags | O_CLOEXEC, 0644);
  if (fd < 0) return -1;
  char byte = 'x';
  long done = (flags & O_ACCMODE) == O_RDONLY ? ::read(fd, &byte, 1) : ::write(fd, &byte, 1);
  int error = errno;
  ::close(fd);
  errno = error;
  return done < 0 ? -1 : 0;
}

inline long ReadFile(const char* path) { return Touch(path, O_RDONLY); }
inline long AppendTo(const char* path) { return Touch(path, O_WRONLY | O_APPEND); }
inline long CreateFile(const char* path) { return Touch(path, O_WRONLY | O_CREAT | O_EXCL); }

}  // namespace probe

#endif  // BRAVEBOT_INTEGRATION_PROBES_PROBE_H_
