// A made-up machine for testing the rules of confine/ and supervisor/: files,
// directories and links added by path, resolved the way the kernel would.
//
//   FakeFileSystem fs;
//   fs.AddDirectory("/home/u/app/.git");
//   fs.AddLink("/home/u/bin/node", "/opt/node/bin/node");
#ifndef BRAVEBOT_TESTS_FAKE_FILESYSTEM_H_
#define BRAVEBOT_TESTS_FAKE_FILESYSTEM_H_

#include <map>
#include <string>

#include "confine/filesystem.h"

namespace bravebot::testing {

class FakeFileSystem : public FileSystemView {
 public:
  FakeFileSystem();

  // Each adds the directories above `path` as it goes.
  void AddDirectory(const std::string& path);
  void AddFile(const std::string& path, const std::string& content = "");
  void AddLink(const std::string& path, const std::string& target);
  // A file with an execute bit, as a program is installed.
  void AddExecutable(const std::string& path, const std::string& content = "");

  FileKind KindOf(const std::string& path, Follow follow) const override;
  std::optional<std::string> ReadPrefix(const std::string& path, size_t limit) const override;
  std::optional<std::string> LinkTarget(const std::string& path) const override;
  std::optional<std::string> ResolvedPath(const std::string& path) const override;
  std::vector<std::string> ListDirectory(const std::string& path) const override;
  bool IsExecutableFile(const std::string& path) const override;

 private:
  struct Node {
    FileKind kind;
    std::string content;  // a file's content, or a link's target
    bool executable = false;
  };
  void AddNode(const std::string& path, Node node);
  // `path` with every link resolved, including the last component when
  // `follow` says so; nothing when a component is missing or links loop.
  std::optional<std::string> Resolve(const std::string& path, Follow follow) const;

  std::map<std::string, Node> nodes_;
};

}  // namespace bravebot::testing

#endif  // BRAVEBOT_TESTS_FAKE_FILESYSTEM_H_
