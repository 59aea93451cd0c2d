#include "base/files.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <random>

#include "base/unique_fd.h"

namespace bravebot {
namespace {

std::string TemporaryPrefix(const std::string& name) { return "." + name + ".new-"; }

std::string RandomSuffix() {
  static constexpr char kLetters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::random_device device;
  std::string suffix;
  for (int i = 0; i < 12; ++i) suffix += kLetters[device() % (sizeof(kLetters) - 1)];
  return suffix;
}

Status WriteAll(int fd, std::string_view content, const std::string& shown_path) {
  while (!content.empty()) {
    ssize_t written = ::write(fd, content.data(), content.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return Error::FromErrno("write " + shown_path);
    }
    content.remove_prefix(static_cast<size_t>(written));
  }
  return {};
}

Status RefuseAnythingButAFile(int dir_fd, const std::string& name, const std::string& shown_path) {
  struct stat status;
  if (::fstatat(dir_fd, name.c_str(), &status, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT) return {};
    return Error::FromErrno("stat " + shown_path);
  }
  if (S_ISLNK(status.st_mode)) {
    return Error(ErrorCode::kRefused,
                 shown_path + " is a link, and bravebot-mcp never writes through a link in its " +
                     "profile directory: replace the link with the file itself");
  }
  if (!S_ISREG(status.st_mode)) {
    return Error(ErrorCode::kRefused, shown_path + " is not a regular file: move it away");
  }
  return {};
}

}  // namespace

Result<std::string> ReadFileAt(int dir_fd, const std::string& name, const std::string& shown_path) {
  UniqueFd fd(::openat(dir_fd, name.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
  if (!fd.valid()) {
    if (errno == ENOENT) return Error(ErrorCode::kNotFound, shown_path + " does not exist", errno);
    if (errno == ELOOP) {
      return Error(ErrorCode::kRefused,
                   shown_path + " is a link, and bravebot-mcp never follows a link in its " +
                       "profile directory: replace the link with the file itself");
    }
    return Error::FromErrno("open " + shown_path);
  }
  struct stat status;
  if (::fstat(fd.get(), &status) != 0) return Error::FromErrno("stat " + shown_path);
  if (!S_ISREG(status.st_mode)) {
    return Error(ErrorCode::kRefused, shown_path + " is not a regular file: move it away");
  }
  std::string content;
  char buffer[65536];
  for (;;) {
    ssize_t got = ::read(fd.get(), buffer, sizeof(buffer));
    if (got < 0) {
      if (errno == EINTR) continue;
      return Error::FromErrno("read " + shown_path);
    }
    if (got == 0) break;
    content.append(buffer, static_cast<size_t>(got));
  }
  return content;
}

Status ReplaceFileAt(int dir_fd, const std::string& name, std::string_view content, mode_t mode,
                     const std::string& shown_path) {
  if (auto refused = RefuseAnythingButAFile(dir_fd, name, shown_path); !refused) return refused;

  std::string temporary;
  UniqueFd fd;
  for (int attempt = 0; attempt < 16 && !fd.valid(); ++attempt) {
    temporary = TemporaryPrefix(name) + RandomSuffix();
    fd.reset(::openat(dir_fd, temporary.c_str(),
                      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode));
    if (!fd.valid() && errno != EEXIST)
      return Error::FromErrno("create a file beside " + shown_path);
  }
  if (!fd.valid()) return Error::FromErrno("create a file beside " + shown_path, EEXIST);

  auto written = [&]() -> Status {
    // The mode given to openat is narrowed by the umask; set it exactly.
    if (::fchmod(fd.get(), mode) != 0) return Error::FromErrno("chmod " + shown_path);
    if (auto status = WriteAll(fd.get(), content, shown_path); !status) return status;
    if (::fsync(fd.get()) != 0) return Error::FromErrno("flush " + shown_path);
    if (::renameat(dir_fd, temporary.c_str(), dir_fd, name.c_str()) != 0) {
      return Error::FromErrno("rename over " + shown_path);
    }
    return {};
  }();
  if (!written) {
    ::unlinkat(dir_fd, temporary.c_str(), 0);
    return written;
  }
  // The rename is durable only once the directory holding it is flushed.
  if (::fsync(dir_fd) != 0) return Error::FromErrno("flush the directory of " + shown_path);
  return {};
}

void RemoveAbandonedTemporaries(int dir_fd, const std::string& name) {
  UniqueFd listing_fd(::openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!listing_fd.valid()) return;
  DIR* listing = ::fdopendir(listing_fd.release());
  if (listing == nullptr) return;
  const std::string prefix = TemporaryPrefix(name);
  while (struct dirent* entry = ::readdir(listing)) {
    if (std::string_view(entry->d_name).starts_with(prefix)) {
      ::unlinkat(dir_fd, entry->d_name, 0);
    }
  }
  ::closedir(listing);
}

Result<std::optional<std::string>> ReadWholeFile(const std::string& path, size_t max_size,
                                                 const std::string& too_large) {
  auto failed = [](int error) {
    return Error(ErrorCode::kSystem, "cannot be read (" + std::string(std::strerror(error)) + ")",
                 error);
  };
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  if (!fd.valid()) {
    if (errno == ENOENT || errno == ENOTDIR) return std::optional<std::string>();
    return failed(errno);
  }
  struct stat status;
  if (::fstat(fd.get(), &status) != 0) return failed(errno);
  if (!S_ISREG(status.st_mode)) return Error(ErrorCode::kCorrupt, "is not a regular file");
  std::string text;
  std::array<char, 8192> buffer;
  for (;;) {
    ssize_t got = ::read(fd.get(), buffer.data(), buffer.size());
    if (got < 0) {
      if (errno == EINTR) continue;
      return failed(errno);
    }
    if (got == 0) break;
    text.append(buffer.data(), static_cast<size_t>(got));
    if (text.size() > max_size) return Error(ErrorCode::kCorrupt, too_large);
  }
  return std::optional<std::string>(std::move(text));
}

}  // namespace bravebot
