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

// What a file that is not one is, as the predicate of a sentence naming it.
std::string NotAFilePredicate(mode_t mode) {
  if (S_ISDIR(mode)) return "is a directory, not a regular file";
  if (S_ISFIFO(mode)) return "is a fifo, not a regular file";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "is a device, not a regular file";
  if (S_ISSOCK(mode)) return "is a socket, not a regular file";
  return "is not a regular file";
}

std::string MostOf(const FileBound& bound) {
  return std::string(bound.kind) + " may be (" + ShownByteCount(bound.most_bytes) + ")";
}

// The regular file open at `fd`, refused past `bound`. The errors' messages
// are predicates: kRefused where what is open is no regular file, kCorrupt
// where it is too large, kSystem (with its errno) where reading fails.
Result<std::string> ReadOpenFile(int fd, const FileBound& bound) {
  struct stat status;
  if (::fstat(fd, &status) != 0) return Error(ErrorCode::kSystem, "", errno);
  // What is open may not be what was looked at, where a writer renamed a new
  // file over it meanwhile: that is read like any other, as long as it is a
  // regular file too.
  if (!S_ISREG(status.st_mode)) {
    return Error(ErrorCode::kRefused, NotAFilePredicate(status.st_mode));
  }
  const std::uint64_t size = static_cast<std::uint64_t>(status.st_size);
  if (size > bound.most_bytes) {
    return Error(ErrorCode::kCorrupt,
                 "is " + ShownByteCount(size) + ", more than " + MostOf(bound));
  }
  std::string content;
  content.reserve(static_cast<size_t>(size));
  std::array<char, 65536> buffer;
  for (;;) {
    ssize_t got = ::read(fd, buffer.data(), buffer.size());
    if (got < 0) {
      if (errno == EINTR) continue;
      return Error(ErrorCode::kSystem, "", errno);
    }
    if (got == 0) break;
    content.append(buffer.data(), static_cast<size_t>(got));
    // A file may grow while it is read; what it holds past the bound is
    // never kept.
    if (content.size() > bound.most_bytes) {
      return Error(ErrorCode::kCorrupt, "grew while it was read to more than " + MostOf(bound));
    }
  }
  return content;
}

}  // namespace

std::string ShownByteCount(std::uint64_t bytes) {
  if (bytes == 1) return "1 byte";
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  size_t unit = 0;
  std::uint64_t unit_bytes = 1024;
  while (bytes / unit_bytes >= 1024 && unit + 1 < std::size(kUnits)) {
    unit_bytes <<= 10;
    ++unit;
  }
  const std::string whole = std::to_string(bytes / unit_bytes);
  const std::uint64_t rest = bytes % unit_bytes;
  // A whole number of units, as every bound is, is shown whole; anything
  // else with a tenth, rounded down, so a size is never shown as more than
  // it is.
  if (rest == 0) return whole + " " + kUnits[unit];
  return whole + "." + std::to_string(rest * 10 / unit_bytes) + " " + kUnits[unit];
}

Result<std::string> ReadFileAt(int dir_fd, const std::string& name, const std::string& shown_path,
                               const FileBound& bound) {
  auto link = [&] {
    return Error(ErrorCode::kRefused,
                 shown_path + " is a link, and bravebot-mcp never follows a link in its " +
                     "profile directory: replace the link with the file itself");
  };
  // Looked at before it is opened: opening a fifo may wait for a writer, and
  // opening a device may do what the device does on open.
  struct stat seen;
  if (::fstatat(dir_fd, name.c_str(), &seen, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT) return Error(ErrorCode::kNotFound, shown_path + " does not exist", errno);
    return Error::FromErrno("stat " + shown_path);
  }
  if (S_ISLNK(seen.st_mode)) return link();
  if (!S_ISREG(seen.st_mode)) {
    return Error(ErrorCode::kRefused,
                 shown_path + " " + NotAFilePredicate(seen.st_mode) + ": move it away");
  }
  UniqueFd fd(
      ::openat(dir_fd, name.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY));
  if (!fd.valid()) {
    if (errno == ENOENT) return Error(ErrorCode::kNotFound, shown_path + " does not exist", errno);
    if (errno == ELOOP) return link();
    return Error::FromErrno("open " + shown_path);
  }
  Result<std::string> content = ReadOpenFile(fd.get(), bound);
  if (!content) {
    const Error& error = content.error();
    switch (error.code()) {
      case ErrorCode::kSystem:
        return Error::FromErrno("read " + shown_path, error.errno_value());
      case ErrorCode::kCorrupt:
        return Error(ErrorCode::kCorrupt, shown_path + " " + error.message() +
                                              ", so it was not read: make it smaller, or move "
                                              "it away");
      default:
        return Error(error.code(), shown_path + " " + error.message() + ": move it away");
    }
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

Result<std::optional<std::string>> ReadWholeFile(const std::string& path, const FileBound& bound) {
  auto failed = [](int error) {
    return Error(ErrorCode::kSystem, "cannot be read (" + std::string(std::strerror(error)) + ")",
                 error);
  };
  // Looked at before it is opened, as in ReadFileAt.
  struct stat seen;
  if (::stat(path.c_str(), &seen) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return std::optional<std::string>();
    return failed(errno);
  }
  if (!S_ISREG(seen.st_mode)) return Error(ErrorCode::kCorrupt, NotAFilePredicate(seen.st_mode));
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  if (!fd.valid()) {
    if (errno == ENOENT || errno == ENOTDIR) return std::optional<std::string>();
    return failed(errno);
  }
  Result<std::string> text = ReadOpenFile(fd.get(), bound);
  if (!text) {
    const Error& error = text.error();
    if (error.code() == ErrorCode::kSystem) return failed(error.errno_value());
    return Error(ErrorCode::kCorrupt, error.message());
  }
  return std::optional<std::string>(std::move(*text));
}

}  // namespace bravebot
