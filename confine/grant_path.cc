#include "confine/grant_path.h"

#include "confine/paths.h"

namespace bravebot {
namespace {

// As many links as the kernel follows in one walk.
constexpr int kMostLinks = 40;

// Pushes the components of `path` so that the first comes off `pending` first.
void PushComponents(const std::string& path, std::vector<std::string>& pending) {
  std::vector<std::string> components = PathComponents(path);
  pending.insert(pending.end(), components.rbegin(), components.rend());
}

}  // namespace

std::string ServerWritableDirectoryHolding(const std::string& path,
                                           const ServerWritableDirectories& writable) {
  for (const std::string& directory : writable) {
    if (path != directory && IsSameOrBeneath(path, directory)) return directory;
  }
  return "";
}

Result<std::string> ResolveGrantPath(const std::string& path,
                                     const ServerWritableDirectories& writable,
                                     const FileSystemView& fs) {
  std::vector<std::string> pending;  // components still to walk, the next one last
  PushComponents(path, pending);
  // The server-writable directories a followed link lay in: the walk must end
  // inside each of them.
  std::vector<std::pair<std::string, std::string>> confined;  // {directory, link}
  std::string current = "/";
  int links = 0;
  while (!pending.empty()) {
    const std::string name = std::move(pending.back());
    pending.pop_back();
    if (name == "..") {
      current = ParentPath(current);
      continue;
    }
    const std::string next = JoinPath(current, name);
    const FileKind kind = fs.KindOf(next, Follow::kNo);
    if (kind == FileKind::kMissing ||
        (kind != FileKind::kDirectory && kind != FileKind::kLink && !pending.empty())) {
      return Error(ErrorCode::kNotFound, "it does not exist");
    }
    if (kind != FileKind::kLink) {
      current = next;
      continue;
    }
    std::optional<std::string> target = fs.LinkTarget(next);
    if (++links > kMostLinks || !target) {
      return Error(ErrorCode::kRefused, "it leads through too many links");
    }
    if (std::string directory = ServerWritableDirectoryHolding(next, writable);
        !directory.empty()) {
      confined.emplace_back(directory, next);
    }
    if (target->starts_with('/'))
      current.assign(1, '/');  // not = "/": GCC 12 warns falsely (-Wrestrict)
    PushComponents(*target, pending);
  }
  for (const auto& [directory, link] : confined) {
    if (!IsSameOrBeneath(current, directory)) {
      return Error(ErrorCode::kRefused,
                   "it leads through the link " + link + " to " + current + ", out of " +
                       directory +
                       ", a directory a server may write: a server may have planted it to widen "
                       "its reach, so nothing is granted through it");
    }
  }
  return current;
}

}  // namespace bravebot
