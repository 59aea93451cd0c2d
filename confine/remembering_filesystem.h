// A FileSystemView that asks the one it wraps each question once and
// remembers the answer. One reach asks of the same paths many times (/etc
// and each entry of it, each PATH directory and the program, resolved link by
// link from several grants: 700 stat calls, of about 200 paths, on the
// development machine). Made for one computation and dropped after it: what
// it remembers is what the filesystem said during it, as a computation that
// asked again would most likely hear too, and nothing is granted on its word
// alone (the launcher opens every path again without following links, and
// checks it is the same file).
//
//   RememberingFileSystem remembered(real);
//   ComputeWith(remembered);
#ifndef BRAVEBOT_CONFINE_REMEMBERING_FILESYSTEM_H_
#define BRAVEBOT_CONFINE_REMEMBERING_FILESYSTEM_H_

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "confine/filesystem.h"

namespace bravebot {

class RememberingFileSystem : public FileSystemView {
 public:
  explicit RememberingFileSystem(const FileSystemView& asked) : asked_(asked) {}

  FileKind KindOf(const std::string& path, Follow follow) const override;
  std::optional<std::string> ReadPrefix(const std::string& path, size_t limit) const override;
  std::optional<std::string> LinkTarget(const std::string& path) const override;
  std::optional<std::string> ResolvedPath(const std::string& path) const override;
  std::vector<std::string> ListDirectory(const std::string& path) const override;
  bool IsExecutableFile(const std::string& path) const override;

 private:
  template <typename Answer>
  using Answers = std::unordered_map<std::string, Answer>;

  const FileSystemView& asked_;
  mutable Answers<FileKind> kinds_not_following_;
  mutable Answers<FileKind> kinds_following_;
  mutable Answers<std::optional<std::string>> link_targets_;
  mutable Answers<std::optional<std::string>> resolved_paths_;
  mutable Answers<std::vector<std::string>> listings_;
  mutable Answers<bool> executable_files_;
};

}  // namespace bravebot

#endif  // BRAVEBOT_CONFINE_REMEMBERING_FILESYSTEM_H_
