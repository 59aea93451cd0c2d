#include "confine/repository.h"

#include "confine/paths.h"

namespace bravebot {
namespace {

bool HoldsGitLink(const std::string& dot_git, const FileSystemView& fs) {
  std::optional<std::string> start = fs.ReadPrefix(dot_git, 7);
  return start && *start == "gitdir:";
}

bool IsRepository(const std::string& directory, const FileSystemView& fs) {
  const std::string dot_git = JoinPath(directory, ".git");
  switch (fs.KindOf(dot_git, Follow::kYes)) {
    case FileKind::kDirectory:
      return true;
    case FileKind::kRegular:
      if (HoldsGitLink(dot_git, fs)) return true;
      break;
    default:
      break;
  }
  return fs.KindOf(JoinPath(directory, "HEAD"), Follow::kYes) == FileKind::kRegular &&
         fs.KindOf(JoinPath(directory, "objects"), Follow::kYes) == FileKind::kDirectory &&
         fs.KindOf(JoinPath(directory, "refs"), Follow::kYes) == FileKind::kDirectory;
}

}  // namespace

std::optional<std::string> FindEnclosingRepository(const std::string& directory,
                                                   const FileSystemView& fs) {
  std::string current = directory;
  for (;;) {
    if (IsRepository(current, fs)) return current;
    if (current == "/") return std::nullopt;
    current = ParentPath(current);
  }
}

}  // namespace bravebot
