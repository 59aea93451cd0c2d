#include "supervisor/policy/new_declaration.h"

#include <algorithm>

#include "base/utf8.h"
#include "confine/paths.h"
#include "confine/working_directory.h"

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

bool IsAllUtf8(const Declaration& declaration) {
  std::vector<std::string_view> words = {declaration.program, declaration.url,
                                         declaration.directory};
  words.insert(words.end(), declaration.arguments.begin(), declaration.arguments.end());
  for (const StoredVariable& stored : declaration.stored_variables) words.push_back(stored.value);
  for (const StoredHeader& header : declaration.headers) words.push_back(header.value);
  words.push_back(declaration.sign_in.secret);
  return std::all_of(words.begin(), words.end(), IsValidUtf8);
}

}  // namespace

Result<Declaration> CompleteDeclaration(Declaration typed, const DeclarationSurroundings& around) {
  if (!IsAllUtf8(typed)) {
    return Error(ErrorCode::kRefused,
                 "a word of the declaration is not UTF-8 text, which mcp.json cannot hold (the "
                 "word is not repeated here, since it may be a key)");
  }
  Declaration declaration = std::move(typed);
  if (declaration.transport == Transport::kHttp) return declaration;

  if (!IsProgramFoundThroughPath(declaration.program)) {
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
    BRAVEBOT_ASSIGN_OR_RETURN(
        std::string directory,
        CheckWorkingDirectory(
            typed_directory.starts_with('/') ? typed_directory
                                             : JoinPath(around.cwd, typed_directory),
            LimitsFor(around.user_home, {around.profile_path, around.profile_resolved_path},
                      kSystemTemporaryRoot, *around.fs),
            *around.fs));
    declaration.directory = directory;
  }
  declaration.may_read = FindFilesItMayRead(declaration, around);
  return declaration;
}

}  // namespace bravebot
