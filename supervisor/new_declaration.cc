#include "supervisor/new_declaration.h"

#include <algorithm>

#include "confine/paths.h"
#include "confine/repository.h"

namespace bravebot {
namespace {

bool IsInProfileDirectory(const std::string& path, const DeclarationSurroundings& around) {
  if (IsSameOrBeneath(path, around.profile_path) ||
      IsSameOrBeneath(path, around.profile_resolved_path)) {
    return true;
  }
  std::optional<std::string> resolved = around.fs->ResolvedPath(path);
  return resolved && IsSameOrBeneath(*resolved, around.profile_resolved_path);
}

// A value or an argument names a file the server may read when it is an
// absolute path to a regular file. A relative one is not looked for: the
// server starts in its own directory, where it would name something else.
void RecordFileCandidate(const std::string& word, const DeclarationSurroundings& around,
                         std::vector<std::string>& may_read) {
  if (!word.starts_with('/')) return;
  std::string path = AbsolutePath(word, "/");
  if (around.fs->KindOf(path, Follow::kYes) != FileKind::kRegular) return;
  if (IsInProfileDirectory(path, around)) return;
  if (std::find(may_read.begin(), may_read.end(), path) == may_read.end()) {
    may_read.push_back(path);
  }
}

std::vector<std::string> FindFilesItMayRead(const Declaration& declaration,
                                            const DeclarationSurroundings& around) {
  std::vector<std::string> may_read;
  for (const StoredVariable& stored : declaration.stored_variables) {
    RecordFileCandidate(stored.value, around, may_read);
  }
  for (const std::string& argument : declaration.arguments) {
    RecordFileCandidate(argument, around, may_read);
    if (size_t equals = argument.find('='); equals != std::string::npos) {
      RecordFileCandidate(argument.substr(equals + 1), around, may_read);
    }
  }
  return may_read;
}

}  // namespace

Result<std::string> CheckWorkingDirectory(const std::string& directory,
                                          const DeclarationSurroundings& around) {
  std::optional<std::string> resolved = around.fs->ResolvedPath(directory);
  if (!resolved) {
    return Error(ErrorCode::kRefused,
                 "the directory " + directory + " does not exist: create it first");
  }
  if (around.fs->KindOf(*resolved, Follow::kYes) != FileKind::kDirectory) {
    return Error(ErrorCode::kRefused, directory + " is not a directory");
  }
  if (std::optional<std::string> repository = FindEnclosingRepository(*resolved, *around.fs)) {
    std::string where = *repository == *resolved
                            ? *resolved + " is a git repository"
                            : *resolved + " is inside the git repository " + *repository;
    return Error(ErrorCode::kRefused,
                 where +
                     ", and a server may not be given one: git runs the commands a "
                     "repository's configuration and hooks name, so a server that may write them "
                     "may run code unconfined the next time you run git there. Give the server a "
                     "directory of its own, outside every repository");
  }
  if (IsSameOrBeneath(*resolved, around.profile_resolved_path) ||
      IsSameOrBeneath(around.profile_resolved_path, *resolved)) {
    return Error(ErrorCode::kRefused,
                 *resolved + " holds or lies in the profile directory " + around.profile_path +
                     ", and a server that may write there could approve itself: give the server "
                     "a directory of its own");
  }
  return *resolved;
}

Result<Declaration> CompleteDeclaration(Declaration typed, const DeclarationSurroundings& around) {
  Declaration declaration = std::move(typed);
  if (declaration.transport == Transport::kHttp) return declaration;

  if (!IsProgramNamedByPath(declaration.program)) {
    declaration.program = AbsolutePath(declaration.program, around.cwd);
  } else if (!declaration.NamesVariable("PATH")) {
    // A program given by name is found through PATH, and the server is given
    // only the variables named for it.
    declaration.passed_variables.push_back("PATH");
  }
  if (!declaration.directory.empty()) {
    // Joined, not normalized: ".." after a link is the link target's parent,
    // as the kernel reads it, and the resolution below does the rest.
    const std::string& typed_directory = declaration.directory;
    Result<std::string> directory = CheckWorkingDirectory(
        typed_directory.starts_with('/') ? typed_directory : JoinPath(around.cwd, typed_directory),
        around);
    if (!directory) return directory.error();
    declaration.directory = *directory;
  }
  declaration.may_read = FindFilesItMayRead(declaration, around);
  return declaration;
}

}  // namespace bravebot
