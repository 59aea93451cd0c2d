#include "confine/remembering_filesystem.h"

namespace bravebot {
namespace {

// The answer remembered for `key` in `answers`, asked with `ask` the first time.
template <typename Answer, typename Ask>
const Answer& Remembered(std::unordered_map<std::string, Answer>& answers, const std::string& key,
                         Ask ask) {
  auto found = answers.find(key);
  if (found == answers.end()) found = answers.emplace(key, ask()).first;
  return found->second;
}

}  // namespace

FileKind RememberingFileSystem::KindOf(const std::string& path, Follow follow) const {
  return Remembered(follow == Follow::kNo ? kinds_not_following_ : kinds_following_, path,
                    [&] { return asked_.KindOf(path, follow); });
}

// A file's first bytes are read for its #! line, once a computation: not kept.
std::optional<std::string> RememberingFileSystem::ReadPrefix(const std::string& path,
                                                             size_t limit) const {
  return asked_.ReadPrefix(path, limit);
}

std::optional<std::string> RememberingFileSystem::LinkTarget(const std::string& path) const {
  return Remembered(link_targets_, path, [&] { return asked_.LinkTarget(path); });
}

std::optional<std::string> RememberingFileSystem::ResolvedPath(const std::string& path) const {
  return Remembered(resolved_paths_, path, [&] { return asked_.ResolvedPath(path); });
}

std::vector<std::string> RememberingFileSystem::ListDirectory(const std::string& path) const {
  return Remembered(listings_, path, [&] { return asked_.ListDirectory(path); });
}

bool RememberingFileSystem::IsExecutableFile(const std::string& path) const {
  return Remembered(executable_files_, path, [&] { return asked_.IsExecutableFile(path); });
}

}  // namespace bravebot
