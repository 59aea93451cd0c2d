#include "tests/fake_filesystem.h"

#include <vector>

#include "confine/paths.h"

namespace bravebot::testing {

FakeFileSystem::FakeFileSystem() { nodes_["/"] = {FileKind::kDirectory, ""}; }

void FakeFileSystem::AddNode(const std::string& path, Node node) {
  std::string normalized = AbsolutePath(path, "/");
  for (std::string parent = ParentPath(normalized); parent != "/"; parent = ParentPath(parent)) {
    nodes_.emplace(parent, Node{FileKind::kDirectory, ""});
  }
  nodes_[normalized] = std::move(node);
}

void FakeFileSystem::AddDirectory(const std::string& path) {
  AddNode(path, {FileKind::kDirectory, ""});
}

void FakeFileSystem::AddFile(const std::string& path, const std::string& content) {
  AddNode(path, {FileKind::kRegular, content});
}

void FakeFileSystem::AddLink(const std::string& path, const std::string& target) {
  AddNode(path, {FileKind::kLink, target});
}

namespace {

// Pushes the components of `path` onto `pending` so the first comes off first.
void PushComponents(const std::string& path, std::vector<std::string>& pending) {
  std::vector<std::string> components = PathComponents(path);
  pending.insert(pending.end(), components.rbegin(), components.rend());
}

}  // namespace

std::optional<std::string> FakeFileSystem::Resolve(const std::string& path, Follow follow) const {
  std::vector<std::string> pending;  // components still to walk, the next one last
  PushComponents(path, pending);
  std::string current = "/";
  int links_followed = 0;
  while (!pending.empty()) {
    std::string name = pending.back();
    pending.pop_back();
    if (name == "..") {
      current = ParentPath(current);
      continue;
    }
    std::string next = JoinPath(current, name);
    auto node = nodes_.find(next);
    if (node == nodes_.end()) return std::nullopt;
    bool last = pending.empty();
    if (node->second.kind != FileKind::kLink || (last && follow == Follow::kNo)) {
      current = next;
      continue;
    }
    if (++links_followed > 40) return std::nullopt;
    const std::string& target = node->second.content;
    if (target.starts_with('/')) current = std::string(1, '/');
    PushComponents(target, pending);
  }
  return current;
}

void FakeFileSystem::AddExecutable(const std::string& path, const std::string& content) {
  AddNode(path, {FileKind::kRegular, content, true});
}

std::vector<std::string> FakeFileSystem::ListDirectory(const std::string& path) const {
  std::vector<std::string> names;
  std::optional<std::string> directory = Resolve(path, Follow::kYes);
  if (!directory || nodes_.at(*directory).kind != FileKind::kDirectory) return names;
  const std::string prefix = *directory == "/" ? "/" : *directory + "/";
  for (auto it = nodes_.lower_bound(prefix); it != nodes_.end() && it->first.starts_with(prefix);
       ++it) {
    if (it->first.size() > prefix.size() &&
        it->first.find('/', prefix.size()) == std::string::npos) {
      names.push_back(it->first.substr(prefix.size()));
    }
  }
  return names;
}

bool FakeFileSystem::IsExecutableFile(const std::string& path) const {
  std::optional<std::string> resolved = Resolve(path, Follow::kYes);
  return resolved && nodes_.at(*resolved).kind == FileKind::kRegular &&
         nodes_.at(*resolved).executable;
}

FileKind FakeFileSystem::KindOf(const std::string& path, Follow follow) const {
  std::optional<std::string> resolved = Resolve(path, follow);
  if (!resolved) return FileKind::kMissing;
  return nodes_.at(*resolved).kind;
}

std::optional<std::string> FakeFileSystem::ReadPrefix(const std::string& path, size_t limit) const {
  std::optional<std::string> resolved = Resolve(path, Follow::kYes);
  if (!resolved || nodes_.at(*resolved).kind != FileKind::kRegular) return std::nullopt;
  return nodes_.at(*resolved).content.substr(0, limit);
}

std::optional<std::string> FakeFileSystem::LinkTarget(const std::string& path) const {
  std::optional<std::string> resolved = Resolve(path, Follow::kNo);
  if (!resolved || nodes_.at(*resolved).kind != FileKind::kLink) return std::nullopt;
  return nodes_.at(*resolved).content;
}

std::optional<std::string> FakeFileSystem::ResolvedPath(const std::string& path) const {
  return Resolve(path, Follow::kYes);
}

}  // namespace bravebot::testing
