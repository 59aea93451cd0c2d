// The few questions confine/ asks of the filesystem, behind an interface so
// that its rules can be tested against a made-up machine.
//
//   RealFileSystem fs;
//   if (fs.KindOf("/home/u/app/.git", Follow::kNo) == FileKind::kDirectory) ...
#ifndef BRAVEBOT_CONFINE_FILESYSTEM_H_
#define BRAVEBOT_CONFINE_FILESYSTEM_H_

#include <optional>
#include <string>
#include <vector>

namespace bravebot {

enum class FileKind { kMissing, kRegular, kDirectory, kLink, kOther };
enum class Follow { kNo, kYes };  // whether a link in the last component is followed

class FileSystemView {
 public:
  virtual ~FileSystemView() = default;

  // What is at `path`; with Follow::kNo a link is reported as kLink.
  virtual FileKind KindOf(const std::string& path, Follow follow) const = 0;

  // Up to `limit` bytes from the start of the regular file at `path`, or
  // nothing when it cannot be read.
  virtual std::optional<std::string> ReadPrefix(const std::string& path, size_t limit) const = 0;

  // What the link at `path` holds (its last component is not followed), or
  // nothing when `path` is not a link.
  virtual std::optional<std::string> LinkTarget(const std::string& path) const = 0;

  // `path` with every link resolved, or nothing when some part is missing.
  virtual std::optional<std::string> ResolvedPath(const std::string& path) const = 0;

  // The names in the directory at `path`, sorted, without "." and "..";
  // empty when it cannot be listed.
  virtual std::vector<std::string> ListDirectory(const std::string& path) const = 0;

  // True for a regular file (after links) that some execute bit allows.
  virtual bool IsExecutableFile(const std::string& path) const = 0;
};

// The machine's own filesystem.
class RealFileSystem : public FileSystemView {
 public:
  FileKind KindOf(const std::string& path, Follow follow) const override;
  std::optional<std::string> ReadPrefix(const std::string& path, size_t limit) const override;
  std::optional<std::string> LinkTarget(const std::string& path) const override;
  std::optional<std::string> ResolvedPath(const std::string& path) const override;
  std::vector<std::string> ListDirectory(const std::string& path) const override;
  bool IsExecutableFile(const std::string& path) const override;
};

}  // namespace bravebot

#endif  // BRAVEBOT_CONFINE_FILESYSTEM_H_
